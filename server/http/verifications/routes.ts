import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { DOCUMENT_METHOD_ID, resolveMethod, resolveStatus, type VerificationStatusValue } from '../../domain/catalogue.js';
import { errors, fieldError } from '../../errors.js';
import { userView } from '../../services/user-view.js';
import { notifyProgress } from '../../session/progress.js';
import { moveDocumentWorkflow, moveVerification, removeVerification } from '../../services/verifications.js';
import { findWorkflow } from '../../store/repos/templates-repo.js';
import { findUserById, findUserVerification } from '../../store/repos/users-repo.js';
import { bearerSecurity, commonErrors, errorBody, userSchema } from '../schemas.js';
import { verificationResult } from '../../services/verification-result.js';
import { verificationResultSchema } from './result-schema.js';
import { parseUserId } from '../users/routes.js';

const keyOrId = z.union([z.string().min(1).max(64), z.number().int()]);

const updateVerificationBody = z.object({
  verification_id: keyOrId,
  status: keyOrId,
  current_workflow_id: z.string().max(128).optional(),
  remarks: z.string().max(2000).optional(),
});

/** Per-user verification methods: spec 4.5 and 4.6. */
export function verificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Verifications'];

    app.patch(
      '/api/users/:user_id/verifications',
      {
        schema: {
          tags,
          summary: 'Update verification status',
          description: 'Method and status each accept the stable key or the legacy numeric id.',
          security: bearerSecurity,
          params: z.object({ user_id: z.string() }),
          body: updateVerificationBody,
          response: {
            200: z.object({ status: z.literal('success'), data: userSchema }),
            404: errorBody,
            422: errorBody,
            ...commonErrors,
          },
        },
      },
      async (req) => {
        const userId = parseUserId(req.params.user_id);
        const { verification_id, status, current_workflow_id, remarks } = req.body;
        const method = resolveMethod(verification_id);
        if (!method) throw fieldError('verification_id', 'The selected verification_id is invalid.');
        const next = resolveStatus(status);
        if (next === undefined) throw fieldError('status', 'The selected status is invalid.');

        const user = await ctx.db.transaction().execute(async (trx) => {
          const existing = await findUserById(trx, userId);
          if (!existing) throw errors.userNotFound();
          const notAssigned = () => fieldError('verification_id', 'This verification is not assigned to the user.');
          if (method.id === DOCUMENT_METHOD_ID) {
            // Checked first: workflows of a removed Document / ID are not the user's to move.
            if (!(await findUserVerification(trx, userId, method.id))) throw notAssigned();
            if (!current_workflow_id) {
              throw fieldError('current_workflow_id', 'The current_workflow_id field is required for Document / ID.');
            }
            const workflow = await findWorkflow(trx, current_workflow_id);
            if (!workflow) throw fieldError('current_workflow_id', 'The selected current_workflow_id is invalid.');
            const moved = await moveDocumentWorkflow(trx, ctx.clock, userId, workflow.raw_id, next as VerificationStatusValue, remarks ?? null);
            if (!moved) throw fieldError('current_workflow_id', 'This document workflow is not assigned to the user.');
          } else {
            const moved = await moveVerification(trx, ctx.clock, userId, method.id, next, {
              ...(remarks !== undefined ? { remarks } : {}),
            });
            if (!moved) throw notAssigned();
          }
          return (await findUserById(trx, userId))!;
        });
        ctx.signals.emit('outbox');
        // The user's open pages (and a live video call in progress) learn of it at once.
        notifyProgress(userId);
        return { status: 'success' as const, data: await userView(ctx.db, user, ctx.config.baseUrl) };
      },
    );

    app.get(
      '/api/users/:user_id/verifications/:verification',
      {
        schema: {
          tags,
          summary: "One verification's result",
          description:
            'Additive to the spec: the status with its reason, each check of the analysis with its outcome (`passed`, `flagged`, `failed`, `not_run`), the fields read from documents (`document_processor`, `mrz_data`), scores, and URLs of the captured images signed for 15 minutes. `verification` is a method key or id.',
          security: bearerSecurity,
          params: z.object({ user_id: z.string(), verification: z.string() }),
          response: { 200: verificationResultSchema, 404: errorBody, ...commonErrors },
        },
      },
      async (req) => {
        const userId = parseUserId(req.params.user_id);
        if (!(await findUserById(ctx.db, userId))) throw errors.userNotFound();
        const method = resolveMethod(req.params.verification);
        const result = method ? await verificationResult(ctx, userId, method) : undefined;
        if (!result) throw errors.notFound('Verification Not Found');
        return result;
      },
    );

    app.delete(
      '/api/users/:user_id/verifications/:verification',
      {
        schema: {
          tags,
          summary: 'Remove an assigned verification method',
          description: 'Only while the method is `assigned`; otherwise `verification_not_removable` (409).',
          security: bearerSecurity,
          params: z.object({ user_id: z.string(), verification: z.string() }),
          response: { 200: z.object({ success: z.literal(true) }), 404: errorBody, 409: errorBody, ...commonErrors },
        },
      },
      async (req) => {
        const userId = parseUserId(req.params.user_id);
        const method = resolveMethod(req.params.verification);
        const outcome = await ctx.db.transaction().execute((trx) => removeVerification(trx, ctx.clock, userId, method?.id));
        if (outcome === 'user_not_found') throw errors.userNotFound();
        if (outcome === 'not_found') throw errors.notFound('Verification Not Found');
        if (outcome === 'not_removable') throw errors.verificationNotRemovable();
        ctx.signals.emit('outbox');
        return { success: true as const };
      },
    );
  };
}
