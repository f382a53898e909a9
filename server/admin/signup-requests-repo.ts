import { sql, type Selectable } from 'kysely';
import type { Executor } from '../store/database.js';
import { ddb, type SignupRequestTable } from './tables.js';

export type SignupRequest = Selectable<SignupRequestTable>;

/** The signup a browser's token names (by the token's SHA-256). */
export async function findSignupRequest(ex: Executor, tokenHash: string): Promise<SignupRequest | undefined> {
  return ddb(ex).selectFrom('signup_requests').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** A new signup waiting for its code. */
export async function insertSignupRequest(
  ex: Executor,
  row: { tokenHash: string; userId: number; codeHash: string; expiresAt: string; createdAt: string },
): Promise<void> {
  await ddb(ex)
    .insertInto('signup_requests')
    .values({
      token_hash: row.tokenHash,
      user_id: row.userId,
      code_hash: row.codeHash,
      attempts: 0,
      expires_at: row.expiresAt,
      confirmed_at: null,
      created_at: row.createdAt,
    })
    .execute();
}

/** A resent code: the new hash, its tries back to none, a new expiry. */
export async function replaceSignupCode(ex: Executor, tokenHash: string, codeHash: string, expiresAt: string): Promise<void> {
  await ddb(ex).updateTable('signup_requests').set({ code_hash: codeHash, attempts: 0, expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
}

/**
 * Takes one try of an open signup's code, before the code is compared: the count goes up in the
 * same statement that checks it is below `maxAttempts`, so guesses sent at once cannot all read
 * the same count and each get a try. Returns the tries used (this one included) and the code's
 * hash, or nothing when no try is left.
 */
export async function takeSignupAttempt(ex: Executor, tokenHash: string, maxAttempts: number): Promise<{ attempts: number; codeHash: string } | undefined> {
  const row = await ddb(ex)
    .updateTable('signup_requests')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('token_hash', '=', tokenHash)
    .where('confirmed_at', 'is', null)
    .where('attempts', '<', maxAttempts)
    .returning(['attempts', 'code_hash'])
    .executeTakeFirst();
  return row ? { attempts: row.attempts, codeHash: row.code_hash } : undefined;
}

/** Marks the signup confirmed, once: false when another request confirmed it first. */
export async function confirmSignupRequest(ex: Executor, tokenHash: string, now: string): Promise<boolean> {
  const r = await ddb(ex)
    .updateTable('signup_requests')
    .set({ confirmed_at: now })
    .where('token_hash', '=', tokenHash)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Users of signups never confirmed, started before `before`; at most `limit`. */
export function staleSignupUsers(ex: Executor, before: string, limit: number): Promise<{ user_id: number }[]> {
  return ddb(ex).selectFrom('signup_requests').select('user_id').where('confirmed_at', 'is', null).where('created_at', '<', before).limit(limit).execute();
}
