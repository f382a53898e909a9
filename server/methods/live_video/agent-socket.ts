import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { LiveVideoAgentMessage } from '../../../src/api/contract.js';
import { recordAudit } from '../../admin/audit.js';
import type { AppContext } from '../../context.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { ApiError, errors } from '../../errors.js';
import { adminFromRequest } from '../../http/admin/auth.js';
import { moveVerification } from '../../services/verifications.js';
import { findUserVerification } from '../../store/repos/users-repo.js';
import type { SessionKit } from '../method.js';
import { hubFor } from './hub.js';
import { backToQueue, callsOfAgent, findCall, pickCall } from './repo.js';
import { LIVE_VIDEO_METHOD_ID, socketBudget } from './rules.js';
import { backToAssigned } from './call-end.js';
import { errorMessage, parseMessage } from './user-socket.js';

/**
 * The agent socket's door, before the upgrade: our own dashboard page only (the Origin must be
 * the base URL's, a socket being exempt from the browser's same-origin rules; Fetch Metadata must
 * not say cross-site), and a signed-in admin (the dashboard's session cookie).
 */
export async function agentGuard(ctx: AppContext, req: FastifyRequest): Promise<void> {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw errors.forbidden('Cross-site request refused.');
  if (req.headers.origin !== new URL(ctx.config.baseUrl).origin) throw errors.forbidden('Cross-site request refused.');
  const admin = await adminFromRequest(ctx, req);
  if (!admin) throw errors.unauthenticated();
  req.admin = admin;
}

/**
 * One agent's signalling socket: the queue on connect and on every change, `pick` (one
 * conditional update: of two agents picking at once one gets the call; the call starts, so the
 * method moves to `processing`, audited; it ends at the configured length limit at the latest,
 * `call-end.ts`), `signal` to the user in the call, `hangup` (the user
 * waits again, first in line, and the method is back to `assigned`). The decision is an HTTP call
 * (`admin-routes.ts`).
 */
export function handleAgentSocket(kit: SessionKit, socket: WebSocket, req: FastifyRequest): void {
  const { ctx } = kit;
  const hub = hubFor(ctx);
  const conn = randomUUID();
  const admin = req.admin!;
  const budget = socketBudget(Date.now());
  let queue: Promise<void> = Promise.resolve();
  hub.addAgent(conn, socket);

  const pick = async (userId: number) => {
    if ((await callsOfAgent(ctx.db, conn)).length > 0) throw errors.conflict('Finish the current call first.');
    const now = ctx.clock.now();
    const endsAt = new Date(now.getTime() + ctx.config.liveVideoMaxCallSeconds * 1000);
    // The pick and the move to `processing` together: a call is never seen in progress on a method still `assigned`.
    const call = await ctx.db.transaction().execute(async (trx) => {
      const picked = await pickCall(trx, userId, conn, admin.id, now, endsAt);
      if (!picked) throw errors.conflict('This user is no longer waiting: another agent took the call, or they left.');
      const v = await findUserVerification(trx, userId, LIVE_VIDEO_METHOD_ID);
      if (v && (v.status === VerificationStatus.assigned || v.status === VerificationStatus.reset)) {
        await moveVerification(trx, ctx.clock, userId, LIVE_VIDEO_METHOD_ID, VerificationStatus.processing);
      }
      await recordAudit(trx, ctx.clock, req, { action: 'live_video.call', targetType: 'user', targetId: userId });
      return picked;
    });
    kit.changed(userId);
    const limit = { ends_at: endsAt.toISOString(), seconds_left: ctx.config.liveVideoMaxCallSeconds };
    hub.toAgent(conn, { type: 'picked', user_id: userId, ...limit });
    hub.toUser(call.user_conn, { type: 'connected', ...limit });
    hub.queueChanged();
  };

  const hangup = async () => {
    for (const call of await callsOfAgent(ctx.db, conn)) {
      if (!(await backToQueue(ctx.db, call.user_id, conn, ctx.clock.now()))) continue;
      await backToAssigned(kit, call.user_id);
      hub.toUser(call.user_conn, { type: 'ended', reason: 'agent_left' });
    }
    hub.queueChanged();
  };

  const onMessage = async (data: RawData) => {
    if (!budget.take(Date.now())) {
      hub.toAgent(conn, errorMessage(errors.tooManyMessages()));
      socket.close(4429, 'too many messages');
      return;
    }
    const parsed = parseMessage(LiveVideoAgentMessage, data);
    if (!parsed.ok) throw parsed.error;
    const message = parsed.value;
    if (message.type === 'pick') return pick(message.user_id);
    if (message.type === 'hangup') return hangup();
    const [call] = await callsOfAgent(ctx.db, conn);
    const current = call ? await findCall(ctx.db, call.user_id) : undefined;
    if (!current || current.state !== 'in_call') throw errors.conflict('No call is open.');
    hub.toUser(current.user_conn, { type: 'signal', signal: message.signal });
  };

  socket.on('message', (data) => {
    queue = queue
      .then(() => onMessage(data))
      .catch((error: unknown) => {
        if (!(error instanceof ApiError)) ctx.log.error({ err: error }, 'live video: agent socket failed');
        hub.toAgent(conn, errorMessage(error));
      });
  });
  socket.on('close', () => {
    queue = queue
      .then(hangup)
      .catch((err: unknown) => ctx.log.error({ err }, 'live video: agent hang-up failed'))
      .finally(() => hub.removeAgent(conn));
  });
  void hub.sendQueue(socket).catch((err: unknown) => ctx.log.error({ err }, 'live video: queue read failed'));
}
