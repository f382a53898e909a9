import { sql } from 'kysely';
import { keyedHash } from '../../crypto/tokens.js';
import type { Executor } from '../../store/database.js';
import { isPostgres } from '../../store/migrations/helpers.js';
import { odb } from './tables.js';

/** The stable id of a provider account, without keeping its subject in clear in the index. */
export function accountHash(serverSecret: string, issuer: string, subject: string): string {
  return keyedHash(serverSecret, 'oidc-account', `${issuer}\n${subject}`);
}

/**
 * Records the provider account the user proved for a step (replacing the step's earlier one) and
 * answers the other users who proved the same account, by any step, oldest first. Call it inside
 * the transaction that records the sign-in.
 */
export async function recordProvenAccount(ex: Executor, row: { userId: number; methodKey: string; accountHash: string; now: Date }): Promise<number[]> {
  // Two users proving the same account at once are one after the other (on PostgreSQL an advisory
  // lock on the account to the end of the transaction; the other user has no row to lock yet): the
  // later finds the earlier's row and goes to review, as it would after it.
  if (isPostgres(ex)) await sql`select pg_advisory_xact_lock(hashtextextended(${row.accountHash}, 0))`.execute(ex);
  const db = odb(ex);
  await db.deleteFrom('oidc_accounts').where('user_id', '=', row.userId).where('method_key', '=', row.methodKey).execute();
  await db
    .insertInto('oidc_accounts')
    .values({ user_id: row.userId, method_key: row.methodKey, account_hash: row.accountHash, proven_at: row.now.toISOString() })
    .execute();
  const others = await db
    .selectFrom('oidc_accounts')
    .select('user_id')
    .where('account_hash', '=', row.accountHash)
    .where('user_id', '!=', row.userId)
    .orderBy('proven_at')
    .execute();
  return [...new Set(others.map((o) => o.user_id))];
}

/** A user's proven provider accounts go with the user. */
export async function deleteUserAccounts(ex: Executor, userId: number): Promise<void> {
  await odb(ex).deleteFrom('oidc_accounts').where('user_id', '=', userId).execute();
}
