import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { findUserById, findUserVerification } from '../../store/repos/users-repo.js';
import type { SessionKit } from '../method.js';
import { hubFor } from './hub.js';
import { closeUndecided, overdueCalls, type LiveVideoCall, removeUserCall } from './repo.js';
import { LIVE_VIDEO_METHOD_ID } from './rules.js';

/**
 * Ends every call past its length limit (`call_ends_at`). Every process runs this on a timer;
 * the conditional delete gives each call to one of them. The method goes back to `assigned`
 * (nothing was decided: the user may join again) and both sides are told.
 */
export async function endOverdueCalls(kit: SessionKit): Promise<number> {
  const { ctx } = kit;
  let ended = 0;
  for (const call of await overdueCalls(ctx.db, ctx.clock.now())) {
    if (!(await closeUndecided(ctx.db, call))) continue;
    await backToAssigned(kit, call.user_id);
    tellEnded(kit, call, 'time_limit');
    ended++;
  }
  if (ended > 0) hubFor(ctx).queueChanged();
  return ended;
}

/** Statuses from which the user may still wait for an agent (reset: an operator asked for a redo). */
const WAITABLE = new Set<number>([VerificationStatus.assigned, VerificationStatus.reset, VerificationStatus.processing]);

/**
 * The user's method may have been changed by someone else (an operator resets, approves or
 * rejects it on the dashboard or through the API): a call in progress needs `processing`, a user
 * waiting needs a method still open. Otherwise the call (or the wait) ends for both sides with
 * `method_changed`, and the new status stands. Called on the user's progress notices and heartbeat
 * with the call row as the socket just read it.
 */
export async function endIfMethodChanged(kit: SessionKit, userId: number, userConn: string, call: LiveVideoCall | undefined): Promise<boolean> {
  const { ctx } = kit;
  if (!call || call.user_conn !== userConn) return false;
  const status = (await findUserVerification(ctx.db, userId, LIVE_VIDEO_METHOD_ID))?.status;
  const stillFits = call.state === 'in_call' ? status === VerificationStatus.processing : status !== undefined && WAITABLE.has(status);
  if (stillFits) return false;
  const closed = call.state === 'in_call' ? await closeUndecided(ctx.db, call) : (await removeUserCall(ctx.db, userId, userConn)) !== undefined;
  if (!closed) return false;
  tellEnded(kit, call, 'method_changed');
  hubFor(ctx).queueChanged();
  return true;
}

/**
 * The user was deleted while waiting or in a call: the deletion took their call row with
 * everything else, so `lastCall` (the row as the user's socket last saw it) names the agent to
 * tell. The agent hears `method_changed`; the caller tells the user's socket and closes it.
 */
export async function endIfUserDeleted(kit: SessionKit, userId: number, lastCall: LiveVideoCall | undefined): Promise<boolean> {
  const { ctx } = kit;
  if (await findUserById(ctx.db, userId)) return false;
  if (lastCall?.agent_conn) hubFor(ctx).toAgent(lastCall.agent_conn, { type: 'ended', reason: 'method_changed' });
  hubFor(ctx).queueChanged();
  return true;
}

function tellEnded(kit: SessionKit, call: LiveVideoCall, reason: 'time_limit' | 'method_changed'): void {
  const hub = hubFor(kit.ctx);
  hub.toUser(call.user_conn, { type: 'ended', reason });
  if (call.agent_conn) hub.toAgent(call.agent_conn, { type: 'ended', reason });
}

/** A call that started but ended without a decision: the method is the user's to try again. */
export async function backToAssigned(kit: SessionKit, userId: number): Promise<void> {
  const { ctx } = kit;
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const v = await findUserVerification(trx, userId, LIVE_VIDEO_METHOD_ID);
    if (v?.status !== VerificationStatus.processing) return false;
    return moveVerification(trx, ctx.clock, userId, LIVE_VIDEO_METHOD_ID, VerificationStatus.assigned, { remarks: null });
  });
  if (moved) kit.changed(userId);
}
