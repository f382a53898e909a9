import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../store/database.js';
import { sdb, type UserSessionTable } from './tables.js';

export type UserSessionRow = Selectable<UserSessionTable>;

export async function insertSession(ex: Executor, row: Insertable<UserSessionTable>): Promise<number> {
  const { id } = await sdb(ex).insertInto('user_sessions').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** The session a token's SHA-256 hex names. */
export function findSessionByHash(ex: Executor, tokenHash: string): Promise<UserSessionRow | undefined> {
  return sdb(ex).selectFrom('user_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Records a call: the last seen time and the idle expiry it pushes forward. */
export async function touchSession(ex: Executor, sessionId: number, lastSeenAt: string, expiresAt: string): Promise<void> {
  await sdb(ex).updateTable('user_sessions').set({ last_seen_at: lastSeenAt, expires_at: expiresAt }).where('id', '=', sessionId).execute();
}

/** Deletes a user's sessions that expired or were revoked before `cutoff`. */
export async function deleteDeadSessions(ex: Executor, userId: number, cutoff: string): Promise<void> {
  await sdb(ex)
    .deleteFrom('user_sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    .execute();
}

/** Ends every session of a user (ban, delete, or an operator's revoke). */
export async function revokeUserSessions(ex: Executor, userId: number, now: Date): Promise<void> {
  await sdb(ex).updateTable('user_sessions').set({ revoked_at: now.toISOString() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/** Ends one session. */
export async function revokeSession(ex: Executor, sessionId: number, now: Date): Promise<void> {
  await sdb(ex).updateTable('user_sessions').set({ revoked_at: now.toISOString() }).where('id', '=', sessionId).execute();
}
