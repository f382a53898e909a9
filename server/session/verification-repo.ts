import type { Executor } from '../store/database.js';

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
