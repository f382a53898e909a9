import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caseTimeline } from '../../../admin/case-timeline.js';
import { signedImagePath } from '../../../admin/image-links.js';
import { fieldsAgainstRecord } from '../../../admin/record-agreement.js';
import { addNote, notesOf } from '../../../admin/review-notes.js';
import type { AppContext } from '../../../context.js';
import { methodById, resolveMethod } from '../../../domain/catalogue.js';
import { deaResult } from '../../../services/dea-registry.js';
import { errors } from '../../../errors.js';
import { stepKeyOf } from '../../../methods/registry.js';
import { FACE_METHOD_KEYS } from '../../../../src/api/routes.js';
import { capturesOf, documentJobsOf } from '../../../store/repos/verification-results-repo.js';
import { findUserById, userLabels } from '../../../store/repos/users-repo.js';
import { verificationAttributesOfUser } from '../../../store/repos/verifications-repo.js';
import { flagsOfUser } from '../../../duplicates/read.js';
import { idParam } from './common.js';
import { portraitBox } from './images.js';
import { CaseAnswer, NoteAnswer } from '../../../../src/api/admin/cases.js';

// Live Video's faces are the stills its agent took of the call.
const FACE_STEPS: ReadonlySet<string> = new Set([...FACE_METHOD_KEYS, 'live_video']);
const noteBody = z.object({ body: z.string().trim().min(1).max(4000) }).strict();

function objectOf(json: string | null): Record<string, unknown> {
  const v: unknown = json ? JSON.parse(json) : null;
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * The user page as a case (issue 23): each document image with its extracted fields against the
 * user's record and its portrait crop, each face capture with its match score, the timeline of
 * events, deliveries and decisions, and reviewers' notes (added here, audited).
 */
export function dashboardCaseRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/admin/api/users/:id/case', { schema: { hide: true, params: idParam, response: { 200: CaseAnswer } } }, async (req, reply) => {
      const user = await findUserById(ctx.db, req.params.id);
      if (!user) throw errors.userNotFound();
      const now = ctx.clock.now();
      const sign = (id: string) => signedImagePath(ctx.config.secret, id, now);
      const [jobs, verifications, notes, timeline, duplicateFlags, dea] = await Promise.all([
        documentJobsOf(ctx.db, user.id),
        verificationAttributesOfUser(ctx.db, user.id),
        notesOf(ctx.db, user.id),
        caseTimeline(ctx.db, user.id),
        flagsOfUser(ctx.db, user.id),
        deaResult(ctx, user),
      ]);
      // Each other user named once with who they are, so the row can link and say whom.
      const otherIds = [...new Set(duplicateFlags.map((f) => f.link.user_id))];
      const others = otherIds.length ? await userLabels(ctx.db, otherIds) : [];
      const duplicates = duplicateFlags.flatMap(({ methodId, link }) => {
        const other = others.find((o) => o.id === link.user_id);
        if (!other) return [];
        return [
          {
            kind: link.kind,
            verification: methodById(methodId)?.name ?? String(methodId),
            other: { id: other.id, label: `${other.first_name ?? ''} ${other.last_name ?? ''}`.trim() || other.email },
            other_verification: resolveMethod(link.verification)?.name ?? link.verification,
            score: link.score,
            found_by: link.found_by,
            detected_at: link.detected_at,
          },
        ];
      });
      // Sides come from the verification's latest document decision.
      const decided = (objectOf(verifications.find((v) => v.method_id === 3)?.attributes ?? null).verify_documents ?? []) as {
        doc_id?: string;
        side?: string;
      }[];
      const documents = jobs
        .slice(-20)
        .reverse()
        .map((j) => {
          const content = objectOf(j.document_data).content as { document_processor?: Record<string, unknown>; doc_type?: string } | undefined;
          return {
            doc_id: j.doc_id,
            side: decided.find((d) => d.doc_id === j.doc_id)?.side ?? null,
            doc_type: content?.doc_type ?? null,
            status: j.status,
            reason: j.reason,
            created_at: j.created_at,
            image_url: sign(`doc:${j.doc_id}`),
            portrait_url: portraitBox(j.document_data) ? sign(`portrait:${j.doc_id}`) : null,
            fields: fieldsAgainstRecord(content?.document_processor ?? {}, user),
          };
        });
      const faces = await Promise.all(
        verifications
          .filter((v) => FACE_STEPS.has(stepKeyOf(v.method_id)))
          .map(async (v) => {
            const attributes = objectOf(v.attributes);
            const step = stepKeyOf(v.method_id);
            const captures = (await capturesOf(ctx.db, user.id, step)).filter((c) => c.media_type.startsWith('image/'));
            return {
              key: methodById(v.method_id)?.key ?? String(v.method_id),
              name: methodById(v.method_id)?.name ?? String(v.method_id),
              similarity: typeof attributes.similarity === 'number' ? attributes.similarity : null,
              decision: typeof attributes.decision === 'string' ? attributes.decision : null,
              captures: captures.slice(-12).map((c) => ({ kind: c.step ?? step, url: sign(c.id) })),
            };
          }),
      );
      void reply.header('cache-control', 'no-store');
      return { data: { documents, faces, notes, timeline, duplicates, dea: dea && { dea_number: dea.dea_number, checks: dea.checks } } };
    });

    app.post('/admin/api/users/:id/notes', { schema: { hide: true, params: idParam, body: noteBody, response: { 201: NoteAnswer } } }, async (req, reply) => {
      if (!(await findUserById(ctx.db, req.params.id))) throw errors.userNotFound();
      const note = await addNote(ctx.db, ctx.clock, req, req.params.id, req.body.body);
      void reply.code(201);
      return { data: note };
    });
  };
}
