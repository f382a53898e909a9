import type { Selectable } from 'kysely';
import type { Executor } from '../../store/database.js';
import { STALE_MS } from './rules.js';
import { ldb, type LiveVideoCallTable } from './tables.js';

export type LiveVideoCall = Selectable<LiveVideoCallTable>;

function freshSince(now: Date): string {
  return new Date(now.getTime() - STALE_MS).toISOString();
}

export function findCall(ex: Executor, userId: number): Promise<LiveVideoCall | undefined> {
  return ldb(ex).selectFrom('live_video_calls').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Puts the user in the queue on socket `conn`, replacing whatever row they had (another tab, a
 * call whose socket dropped). A user already waiting keeps their place. Returns the row replaced.
 */
export async function enqueue(ex: Executor, userId: number, conn: string, now: Date): Promise<LiveVideoCall | undefined> {
  const previous = await findCall(ex, userId);
  const at = now.toISOString();
  const queuedAt = previous?.state === 'waiting' ? previous.queued_at : at;
  const row = {
    state: 'waiting' as const,
    user_conn: conn,
    agent_conn: null,
    agent_admin_id: null,
    queued_at: queuedAt,
    call_started_at: null,
    call_ends_at: null,
    seen_at: at,
  };
  await ldb(ex)
    .insertInto('live_video_calls')
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
  return previous;
}

/** Everyone waiting whose socket is alive, oldest first, with the name the agent greets them by. */
export async function waitingQueue(
  ex: Executor,
  now: Date,
): Promise<{ user_id: number; first_name: string | null; last_name: string | null; queued_at: string }[]> {
  return ldb(ex)
    .selectFrom('live_video_calls')
    .innerJoin('users', 'users.id', 'live_video_calls.user_id')
    .select(['live_video_calls.user_id', 'users.first_name', 'users.last_name', 'live_video_calls.queued_at'])
    .where('live_video_calls.state', '=', 'waiting')
    .where('live_video_calls.seen_at', '>', freshSince(now))
    .orderBy('live_video_calls.queued_at')
    .orderBy('live_video_calls.user_id')
    .execute();
}

/**
 * The agent on socket `agentConn` takes a waiting user: one conditional update, so of two agents
 * picking at once one gets the call, which ends at `endsAt` at the latest. Returns the row as
 * picked, or undefined.
 */
export async function pickCall(ex: Executor, userId: number, agentConn: string, adminId: number, now: Date, endsAt: Date): Promise<LiveVideoCall | undefined> {
  const result = await ldb(ex)
    .updateTable('live_video_calls')
    .set({ state: 'in_call', agent_conn: agentConn, agent_admin_id: adminId, call_started_at: now.toISOString(), call_ends_at: endsAt.toISOString() })
    .where('user_id', '=', userId)
    .where('state', '=', 'waiting')
    .where('seen_at', '>', freshSince(now))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? findCall(ex, userId) : undefined;
}

/** Removes the user's row if socket `userConn` still holds it; the row removed, else undefined. */
export async function removeUserCall(ex: Executor, userId: number, userConn: string): Promise<LiveVideoCall | undefined> {
  const row = await findCall(ex, userId);
  if (!row || row.user_conn !== userConn) return undefined;
  const result = await ldb(ex).deleteFrom('live_video_calls').where('user_id', '=', userId).where('user_conn', '=', userConn).executeTakeFirst();
  return result.numDeletedRows > 0n ? row : undefined;
}

/** Ends the call of agent socket `agentConn` with a decision: the row removed, else undefined (decided already). */
export async function closeDecided(ex: Executor, userId: number, agentConn: string): Promise<boolean> {
  const result = await ldb(ex)
    .deleteFrom('live_video_calls')
    .where('user_id', '=', userId)
    .where('agent_conn', '=', agentConn)
    .where('state', '=', 'in_call')
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The calls agent socket `agentConn` holds (one, or none). */
export function callsOfAgent(ex: Executor, agentConn: string): Promise<LiveVideoCall[]> {
  return ldb(ex).selectFrom('live_video_calls').selectAll().where('agent_conn', '=', agentConn).execute();
}

/** Puts a call the agent left back in the queue, at its old place. True when this socket held it. */
export async function backToQueue(ex: Executor, userId: number, agentConn: string, now: Date): Promise<boolean> {
  const result = await ldb(ex)
    .updateTable('live_video_calls')
    .set({ state: 'waiting', agent_conn: null, agent_admin_id: null, call_started_at: null, call_ends_at: null, seen_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('agent_conn', '=', agentConn)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Calls in progress whose deadline has passed, on whichever process they were started. */
export function overdueCalls(ex: Executor, now: Date): Promise<LiveVideoCall[]> {
  return ldb(ex).selectFrom('live_video_calls').selectAll().where('state', '=', 'in_call').where('call_ends_at', '<=', now.toISOString()).execute();
}

/**
 * Ends the call `call` without a decision: removes its row if it is still that call (the same
 * user socket and agent socket, still in progress). True for the one caller that ended it.
 */
export async function closeUndecided(ex: Executor, call: LiveVideoCall): Promise<boolean> {
  if (call.agent_conn === null) return false;
  const result = await ldb(ex)
    .deleteFrom('live_video_calls')
    .where('user_id', '=', call.user_id)
    .where('user_conn', '=', call.user_conn)
    .where('agent_conn', '=', call.agent_conn)
    .where('state', '=', 'in_call')
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The user's socket is still there. */
export async function touchCall(ex: Executor, userId: number, userConn: string, now: Date): Promise<void> {
  await ldb(ex).updateTable('live_video_calls').set({ seen_at: now.toISOString() }).where('user_id', '=', userId).where('user_conn', '=', userConn).execute();
}

/** The deletion hook: a deleted user leaves the queue and any call. */
export async function deleteLiveVideoData(trx: Executor, userId: number): Promise<void> {
  await ldb(trx).deleteFrom('live_video_calls').where('user_id', '=', userId).execute();
}
