import type { CodeMethodKey } from '../../../src/api/contract.js';
import type { Executor } from '../../store/database.js';
import { CODE_MAX_ATTEMPTS } from './rules.js';
import { cdb, type VerificationCodeTable } from './tables.js';
import { takeOneTry, useOnce } from '../tries-repo.js';

/** Whose codes: the e-mail and phone steps, the Two-Step method's SMS codes, and the payment account's e-mail. */
export type CodeStoreKey = CodeMethodKey | 'two_step' | 'payment_account';

/** A stored code's row, without its user and method (they are the key). */
export type CodeRow = Omit<VerificationCodeTable, 'user_id' | 'method_key'>;

export async function findCode(ex: Executor, userId: number, key: CodeStoreKey): Promise<VerificationCodeTable | undefined> {
  return cdb(ex).selectFrom('verification_codes').selectAll().where('user_id', '=', userId).where('method_key', '=', key).executeTakeFirst();
}

/**
 * Stores the user's one live code for `key` over `previous`, the row the new one was drafted
 * from (none: the first code), in one conditional statement: false when another send stored a
 * code since that read (of two sends at once, one sends; the resend limits hold).
 */
export async function saveCode(ex: Executor, userId: number, key: CodeStoreKey, row: CodeRow, previous: CodeRow | undefined): Promise<boolean> {
  const t = cdb(ex);
  if (!previous) {
    const r = await t
      .insertInto('verification_codes')
      .values({ user_id: userId, method_key: key, ...row })
      .onConflict((oc) => oc.columns(['user_id', 'method_key']).doNothing())
      .executeTakeFirst();
    return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }
  const r = await t
    .updateTable('verification_codes')
    .set(row)
    .where('user_id', '=', userId)
    .where('method_key', '=', key)
    .where('code_hash', '=', previous.code_hash)
    .where('sent_at', '=', previous.sent_at)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/**
 * Counts one try against the code with `codeHash`, atomically (so parallel guesses cannot exceed
 * the limit): the tries now used, or undefined when none is left or the code was used or replaced.
 */
export function countTry(ex: Executor, userId: number, key: CodeStoreKey, codeHash: string): Promise<number | undefined> {
  return takeOneTry(cdb(ex), 'verification_codes', CODE_MAX_ATTEMPTS, (eb) =>
    eb.and([eb('user_id', '=', userId), eb('method_key', '=', key), eb('code_hash', '=', codeHash), eb('used_at', 'is', null)]),
  );
}

/** Uses the code up, once: false when a parallel request used or replaced it first. */
export function consumeCode(ex: Executor, userId: number, key: CodeStoreKey, codeHash: string, now: Date): Promise<boolean> {
  return useOnce(cdb(ex), 'verification_codes', now, (eb) => eb.and([eb('user_id', '=', userId), eb('method_key', '=', key), eb('code_hash', '=', codeHash)]));
}

/** The user's codes go with the user (the foreign key cascades too; explicit deletes keep every database alike). */
export async function deleteUserCodes(ex: Executor, userId: number): Promise<void> {
  await cdb(ex).deleteFrom('verification_codes').where('user_id', '=', userId).execute();
}
