import type { Insertable } from 'kysely';
import type { Executor } from '../database.js';
import type { EventTable } from '../schema.js';

/** An undispatched event with the user names a test-identity check needs. */
export interface OutboxEvent {
  id: string;
  type: string;
  user_id: number | null;
  payload: string;
  username: string | null;
  email: string | null;
}

export async function insertEvent(ex: Executor, row: Insertable<EventTable>): Promise<void> {
  await ex.insertInto('events').values(row).execute();
}

/**
 * The oldest undispatched events, at most `limit`. With `lock` (PostgreSQL) the rows are locked
 * and rows another relay holds are skipped, so several relays each take their own.
 */
export function undispatchedEvents(ex: Executor, limit: number, lock: boolean): Promise<OutboxEvent[]> {
  let query = ex
    .selectFrom('events')
    .leftJoin('users', 'users.id', 'events.user_id')
    .select(['events.id', 'events.type', 'events.user_id', 'events.payload', 'users.username', 'users.email'])
    .where('events.dispatched_at', 'is', null)
    .orderBy('events.occurred_at')
    .orderBy('events.id')
    .limit(limit);
  if (lock) query = query.forUpdate('events').skipLocked();
  return query.execute();
}

export async function markEventsDispatched(ex: Executor, ids: readonly string[], at: string): Promise<void> {
  await ex
    .updateTable('events')
    .set({ dispatched_at: at })
    .where('id', 'in', [...ids])
    .execute();
}

/** The newest events about one user, at most `limit` (a case's timeline). */
export function eventsOfUser(ex: Executor, userId: number, limit: number): Promise<{ type: string; occurred_at: string; payload: string }[]> {
  return ex.selectFrom('events').select(['type', 'occurred_at', 'payload']).where('user_id', '=', userId).orderBy('occurred_at', 'desc').limit(limit).execute();
}

/** A deleted user's events go with them, dispatched or not. */
export async function deleteEventsOfUser(ex: Executor, userId: number): Promise<void> {
  await ex.deleteFrom('events').where('user_id', '=', userId).execute();
}
