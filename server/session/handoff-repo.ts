import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../store/database.js';
import { sdb, type HandoffTokenTable } from './tables.js';

export type HandoffTokenRow = Selectable<HandoffTokenTable>;

export async function insertHandoffToken(ex: Executor, row: Insertable<HandoffTokenTable>): Promise<void> {
  await sdb(ex).insertInto('handoff_tokens').values(row).execute();
}

/** The short-link codes of a user's unclaimed tokens. */
export async function unclaimedHandoffCodes(ex: Executor, userId: number): Promise<string[]> {
  const rows = await sdb(ex).selectFrom('handoff_tokens').select('short_code').where('user_id', '=', userId).where('used_at', 'is', null).execute();
  return rows.flatMap((r) => (r.short_code ? [r.short_code] : []));
}

export async function deleteUnclaimedHandoffTokens(ex: Executor, userId: number): Promise<void> {
  await sdb(ex).deleteFrom('handoff_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** The token a SHA-256 hex names. */
export function findHandoffToken(ex: Executor, tokenHash: string): Promise<HandoffTokenRow | undefined> {
  return sdb(ex).selectFrom('handoff_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks an unused token used, in the statement that checks it is unused: false when another claim came first. */
export async function markHandoffUsed(ex: Executor, tokenHash: string, now: string): Promise<boolean> {
  const claimed = await sdb(ex)
    .updateTable('handoff_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** Deletes a user's tokens that expired before `cutoff`. */
export async function deleteExpiredHandoffTokens(ex: Executor, userId: number, cutoff: string): Promise<void> {
  await sdb(ex).deleteFrom('handoff_tokens').where('user_id', '=', userId).where('expires_at', '<', cutoff).execute();
}

/** The desktop sessions that handed the user over to a phone (their tokens were claimed). */
export function claimedHandoffSessions(ex: Executor, userId: number): Promise<{ session_id: number }[]> {
  return sdb(ex).selectFrom('handoff_tokens').select('session_id').where('user_id', '=', userId).where('used_at', 'is not', null).execute();
}
