import type { Executor } from '../store/database.js';
import { sdb } from './tables.js';

/**
 * The session core's rows of a user: sessions, method states, uploads, hand-off tokens (the
 * foreign keys cascade too; explicit deletes keep every database alike).
 */
export async function deleteSessionData(trx: Executor, userId: number): Promise<void> {
  const t = sdb(trx);
  await t.deleteFrom('user_sessions').where('user_id', '=', userId).execute();
  await t.deleteFrom('method_state').where('user_id', '=', userId).execute();
  await t.deleteFrom('session_uploads').where('user_id', '=', userId).execute();
  await t.deleteFrom('handoff_tokens').where('user_id', '=', userId).execute();
}
