import { VerificationStatus } from '../../domain/catalogue.js';
import type { Executor } from '../../store/database.js';
import { TWO_STEP_MAX_ATTEMPTS } from './rules.js';
import { tdb, type TwoStepFactorTable } from './tables.js';
import { takeOneTry, useOnce } from '../tries-repo.js';

/** The key of the Two-Step method's SMS codes in `verification_codes`. */
export const TWO_STEP_CODE_KEY = 'two_step';

export async function findFactor(ex: Executor, userId: number): Promise<TwoStepFactorTable | undefined> {
  return tdb(ex).selectFrom('two_step_factors').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Stores a new pending factor (an authenticator secret, or a phone), replacing a pending one.
 * Tries and the lock are kept: starting over does not give new tries.
 */
export async function savePendingFactor(
  ex: Executor,
  userId: number,
  factor: Pick<TwoStepFactorTable, 'factor' | 'sealed_secret' | 'phone' | 'country_code' | 'pending_expires_at'>,
  now: Date,
): Promise<void> {
  const row = { ...factor, enabled_at: null, last_counter: null };
  await tdb(ex)
    .insertInto('two_step_factors')
    .values({ user_id: userId, ...row, attempts: 0, locked: 0, created_at: now.toISOString() })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...row, created_at: now.toISOString() }))
    .execute();
}

/**
 * Takes one try, atomically (so parallel codes cannot exceed the limit): the tries now used, or
 * undefined when none is left.
 */
export function takeTry(ex: Executor, userId: number): Promise<number | undefined> {
  return takeOneTry(tdb(ex), 'two_step_factors', TWO_STEP_MAX_ATTEMPTS, (eb) => eb('user_id', '=', userId));
}

/**
 * Claims a TOTP time step in the statement that checks it: two requests carrying the same code at
 * once both get past the comparison, and only the one that moves the counter may pass.
 */
export async function claimStep(ex: Executor, userId: number, step: number): Promise<boolean> {
  const claimed = await tdb(ex)
    .updateTable('two_step_factors')
    .set({ last_counter: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_counter', 'is', null), eb('last_counter', '<', step)]))
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

/**
 * Marks the tries as run out, once: true for the one request that locked it (it rejects the
 * method in the same transaction), false when another did already.
 */
export async function lockOnce(ex: Executor, userId: number): Promise<boolean> {
  const locked = await tdb(ex).updateTable('two_step_factors').set({ locked: 1 }).where('user_id', '=', userId).where('locked', '=', 0).executeTakeFirst();
  return locked.numUpdatedRows > 0n;
}

/**
 * A locked factor whose method is open again (a retry, an operator's or the API's reset) gets its
 * tries back. The status is read in the same statement: a request that passed its open check
 * just before another locked and rejected the method finds it rejected here, and unlocks nothing.
 */
export async function unlockReopened(ex: Executor, userId: number, methodId: number): Promise<void> {
  await tdb(ex)
    .updateTable('two_step_factors')
    .set({ locked: 0, attempts: 0 })
    .where('user_id', '=', userId)
    .where('locked', '=', 1)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_verifications')
          .select('user_verifications.user_id')
          .where('user_verifications.user_id', '=', userId)
          .where('user_verifications.method_id', '=', methodId)
          .where('user_verifications.status', 'in', [VerificationStatus.assigned, VerificationStatus.reset]),
      ),
    )
    .execute();
}

/** Turns the factor on (or keeps it on, after a repeat proof) and gives the tries back. */
export async function enableFactor(ex: Executor, userId: number, enabledAt: string): Promise<void> {
  await tdb(ex).updateTable('two_step_factors').set({ enabled_at: enabledAt, pending_expires_at: null, attempts: 0 }).where('user_id', '=', userId).execute();
}

/** Replaces the user's recovery codes with these hashes. */
export async function saveRecoveryCodes(ex: Executor, userId: number, hashes: readonly string[]): Promise<void> {
  const t = tdb(ex);
  await t.deleteFrom('two_step_recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length > 0)
    await t
      .insertInto('two_step_recovery_codes')
      .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
      .execute();
}

/** Uses a recovery code up, once: false when it is unknown or was used (also by a parallel request). */
export function useRecoveryCode(ex: Executor, userId: number, hash: string, now: Date): Promise<boolean> {
  return useOnce(tdb(ex), 'two_step_recovery_codes', now, (eb) => eb.and([eb('user_id', '=', userId), eb('code_hash', '=', hash)]));
}

export async function recoveryCodesLeft(ex: Executor, userId: number): Promise<number> {
  const row = await tdb(ex)
    .selectFrom('two_step_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Deletes the user's confirmed factor; false when there was none (another removal came first). */
export async function deleteEnabledFactor(ex: Executor, userId: number): Promise<boolean> {
  const r = await tdb(ex).deleteFrom('two_step_factors').where('user_id', '=', userId).where('enabled_at', 'is not', null).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** A user's second factor, recovery codes and SMS codes go with the user. */
export async function deleteTwoStepData(ex: Executor, userId: number): Promise<void> {
  const t = tdb(ex);
  await t.deleteFrom('two_step_recovery_codes').where('user_id', '=', userId).execute();
  await t.deleteFrom('two_step_factors').where('user_id', '=', userId).execute();
  await t.deleteFrom('verification_codes').where('user_id', '=', userId).where('method_key', '=', TWO_STEP_CODE_KEY).execute();
}
