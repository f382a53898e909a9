import type { Executor } from '../store/database.js';
import { isPostgres } from '../store/migrations/helpers.js';
import type { UserVerificationRow } from '../store/schema.js';

/** Records when the user first started a method (webhook `start_time`); a no-op once set. */
export async function markStarted(ex: Executor, userId: number, methodId: number, now: Date): Promise<void> {
  await ex
    .updateTable('user_verifications')
    .set({ started_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('method_id', '=', methodId)
    .where('started_at', 'is', null)
    .execute();
}

/**
 * The user's verification of a method, read inside a transaction `trx` and held until it ends:
 * on PostgreSQL the row is locked (`FOR UPDATE`; a second submit at the same moment waits for the
 * commit, then reads the status the first one wrote); SQLite runs one transaction at a time.
 */
export async function lockVerification(trx: Executor, userId: number, methodId: number): Promise<UserVerificationRow | undefined> {
  let query = trx.selectFrom('user_verifications').selectAll().where('user_id', '=', userId).where('method_id', '=', methodId);
  if (isPostgres(trx)) query = query.forUpdate();
  return query.executeTakeFirst();
}
