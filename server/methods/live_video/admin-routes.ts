import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LiveVideoDecision } from '../../../src/api/contract.js';
import { recordAudit } from '../../admin/audit.js';
import { signedImagePath } from '../../admin/image-links.js';
import type { AppContext } from '../../context.js';
import type { AdminKit } from '../method.js';
import { errors, fieldError } from '../../errors.js';
import { idParam } from '../../http/admin/dashboard/common.js';
import { moveVerification } from '../../services/verifications.js';
import { notifyProgress } from '../../session/progress.js';
import { insertUpload } from '../../session/uploads-repo.js';
import { capturesOf, documentJobsOf } from '../../store/repos/verification-results-repo.js';
import { findUserById } from '../../store/repos/users-repo.js';
import { acceptUpload } from '../../uploads/accept-upload.js';
import { isAnalysisInputError } from '../../analysis/errors.js';
import { hubFor } from './hub.js';
import { closeDecided, findCall, type LiveVideoCall } from './repo.js';
import { LIVE_VIDEO_METHOD_ID, MAX_STILL_BYTES, MAX_STILLS, reasonRequired, statusForDecision, statusKeyForDecision } from './rules.js';
import { CallContextAnswer, DecisionAnswer, StillAnswer } from '../../../src/api/admin/live-video.js';

const STILL_TYPES = ['image/jpeg', 'image/png'] as const;
const DECISION_WORDS = { approve: 'approved', reject: 'rejected', review: 'sent_to_review' } as const;

/** The call the signed-in agent holds with the user, or 409. */
async function heldCall(ctx: AppContext, userId: number, adminId: number): Promise<LiveVideoCall & { agent_conn: string }> {
  const call = await findCall(ctx.db, userId);
  if (!call || call.state !== 'in_call' || call.agent_admin_id !== adminId || call.agent_conn === null) {
    throw errors.conflict('You are not in a call with this user.');
  }
  return { ...call, agent_conn: call.agent_conn };
}

/**
 * The agent's HTTP side of a call, in the dashboard's scope (admin session, CSRF and cross-site
 * guards): what the user captured before (documents, selfies) and the stills taken so far;
 * `stills` (a frame of the remote video, checked by content and stored like other captures);
 * `decision` (approve, reject or send to review with a reason: the method's status, its
 * webhook `attributes`, the audit log, and the user's screen, in that order).
 */
export function liveVideoAdminRoutes({ ctx }: AdminKit): FastifyPluginAsyncZod {
  return async (app) => {
    app.addContentTypeParser(['image/jpeg', 'image/png'], { parseAs: 'buffer', bodyLimit: MAX_STILL_BYTES }, (_req, body, done) => done(null, body));

    app.get('/admin/api/live-video/:id/context', { schema: { hide: true, params: idParam, response: { 200: CallContextAnswer } } }, async (req) => {
      const user = await findUserById(ctx.db, req.params.id);
      if (!user) throw errors.userNotFound();
      const sign = (id: string) => signedImagePath(ctx.config.secret, id, ctx.clock.now());
      const jobs = (await documentJobsOf(ctx.db, user.id)).slice(-4).reverse();
      const faces = [...(await capturesOf(ctx.db, user.id, 'selfie')), ...(await capturesOf(ctx.db, user.id, 'liveness'))].filter((c) =>
        c.media_type.startsWith('image/'),
      );
      const stills = (await capturesOf(ctx.db, user.id, 'live_video')).filter((c) => c.step === 'still');
      return {
        data: {
          user_id: user.id,
          name: [user.first_name, user.last_name].filter(Boolean).join(' '),
          documents: jobs.map((j) => ({ url: sign(`doc:${j.doc_id}`) })),
          faces: faces.slice(-3).map((c) => ({ url: sign(c.id) })),
          stills: stills.map((c) => ({ id: c.id, url: sign(c.id) })),
        },
      };
    });

    app.post('/admin/api/live-video/:id/stills', { schema: { hide: true, params: idParam, response: { 201: StillAnswer } } }, async (req, reply) => {
      const call = await heldCall(ctx, req.params.id, req.admin!.id);
      if (!Buffer.isBuffer(req.body)) throw fieldError('body', 'Send the still as image/jpeg or image/png.');
      const bytes = req.body;
      let mediaType: string;
      try {
        mediaType = (await acceptUpload(bytes, STILL_TYPES)).mediaType;
      } catch (err: unknown) {
        if (isAnalysisInputError(err)) throw fieldError('body', err.message);
        throw err;
      }
      const taken = (await capturesOf(ctx.db, call.user_id, 'live_video')).length;
      if (taken >= MAX_STILLS) throw errors.conflict(`A call keeps at most ${MAX_STILLS} stills.`);
      const id = `still_${randomBytes(12).toString('base64url')}`;
      const blobKey = `users/${call.user_id}/session/${id}`;
      const now = ctx.clock.now();
      await ctx.blobs.put(blobKey, bytes, mediaType);
      await ctx.db.transaction().execute(async (trx) => {
        await insertUpload(trx, {
          id,
          user_id: call.user_id,
          method_key: 'live_video',
          document_type: null,
          side: null,
          challenge_id: null,
          step_index: null,
          step: 'still',
          blob_key: blobKey,
          media_type: mediaType,
          size: bytes.length,
          meta: JSON.stringify({ taken_by: req.admin!.id, call_started_at: call.call_started_at }),
          created_at: now.toISOString(),
        });
        await recordAudit(trx, ctx.clock, req, { action: 'live_video.still', targetType: 'user', targetId: call.user_id, details: { still_id: id } });
      });
      void reply.code(201);
      return { data: { id, url: signedImagePath(ctx.config.secret, id, now) } };
    });

    app.post(
      '/admin/api/live-video/:id/decision',
      { schema: { hide: true, params: idParam, body: LiveVideoDecision, response: { 200: DecisionAnswer } } },
      async (req) => {
        const { decision } = req.body;
        const reason = req.body.reason?.trim() || null;
        if (reasonRequired(decision) && reason === null) throw fieldError('reason', 'Say why: the customer receives this reason.');
        const call = await heldCall(ctx, req.params.id, req.admin!.id);
        const now = ctx.clock.now();
        const stills = (await capturesOf(ctx.db, call.user_id, 'live_video')).length;
        const startedAt = call.call_started_at ?? now.toISOString();
        await ctx.db.transaction().execute(async (trx) => {
          // One decision per call: a second (or a parallel one) finds the call closed.
          if (!(await closeDecided(trx, call.user_id, call.agent_conn))) throw errors.conflict('This call was already decided or has ended.');
          await moveVerification(trx, ctx.clock, call.user_id, LIVE_VIDEO_METHOD_ID, statusForDecision(decision), {
            remarks: decision === 'approve' ? null : reason,
            attributes: {
              agent_decision: DECISION_WORDS[decision],
              reason,
              agent_id: req.admin!.id,
              call_started_at: startedAt,
              call_seconds: Math.max(0, Math.round((now.getTime() - Date.parse(startedAt)) / 1000)),
              stills,
              decided_at: now.toISOString(),
            },
          });
          await recordAudit(trx, ctx.clock, req, {
            action: `live_video.${decision}`,
            targetType: 'user',
            targetId: call.user_id,
            details: { method: 'live_video', reason, stills },
          });
        });
        ctx.signals.emit('outbox');
        notifyProgress(call.user_id);
        const hub = hubFor(ctx);
        hub.toUser(call.user_conn, { type: 'decided', status: statusKeyForDecision(decision) });
        hub.queueChanged();
        return { data: { user_id: call.user_id, status: statusKeyForDecision(decision) } };
      },
    );
  };
}
