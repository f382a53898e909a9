import { VerificationStatus } from '../../domain/catalogue.js';
import type { Executor } from '../../store/database.js';
import { BANK_MAX_ATTEMPTS } from './rules.js';
import type { Insertable, Selectable } from 'kysely';
import { bdb, type BankAccountTable, type BankPayoutTable } from './tables.js';
import { takeOneTry } from '../tries-repo.js';

export async function findAccount(ex: Executor, userId: number): Promise<BankAccountTable | undefined> {
  return bdb(ex).selectFrom('bank_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Stores the account and its first deposits, replacing an account of a reopened method. */
export async function saveAccount(ex: Executor, row: BankAccountTable): Promise<void> {
  const { user_id: _userId, ...rest } = row;
  await bdb(ex)
    .insertInto('bank_accounts')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet(rest))
    .execute();
}

/**
 * Claims the stage change from `expected` (a round, or no account at all when null) in one
 * conditional statement: of two requests asking at once, one gets the deposits.
 */
export async function newRound(
  ex: Executor,
  userId: number,
  expectedRound: number,
  next: Pick<BankAccountTable, 'amounts_hash' | 'round' | 'sent_at' | 'expires_at'>,
): Promise<boolean> {
  const r = await bdb(ex)
    .updateTable('bank_accounts')
    .set({ ...next, attempts: 0, locked: 0 })
    .where('user_id', '=', userId)
    .where('round', '=', expectedRound)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Takes one try, atomically: the tries now used, or undefined when none is left. */
export function takeTry(ex: Executor, userId: number): Promise<number | undefined> {
  return takeOneTry(bdb(ex), 'bank_accounts', BANK_MAX_ATTEMPTS, (eb) => eb.and([eb('user_id', '=', userId), eb('locked', '=', 0)]));
}

/** Marks the deposits confirmed, once: false when another request did already. */
export async function confirmOnce(ex: Executor, userId: number, round: number, at: string): Promise<boolean> {
  const r = await bdb(ex)
    .updateTable('bank_accounts')
    .set({ confirmed_at: at })
    .where('user_id', '=', userId)
    .where('round', '=', round)
    .where('confirmed_at', 'is', null)
    .where('locked', '=', 0)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/**
 * Marks the tries as run out, once: true for the one request that locked it (it rejects the
 * method). Never over confirmed deposits: a right entry and a last wrong one at once, one wins.
 */
export async function lockOnce(ex: Executor, userId: number): Promise<boolean> {
  const r = await bdb(ex)
    .updateTable('bank_accounts')
    .set({ locked: 1 })
    .where('user_id', '=', userId)
    .where('locked', '=', 0)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/**
 * Whether the user's row belongs to a method that was rejected and then reopened (a retry, a
 * reset): then the user starts over with a new account entry. Read with the status in one query.
 */
export async function isStaleAfterReopen(ex: Executor, userId: number, methodId: number): Promise<boolean> {
  const row = await bdb(ex)
    .selectFrom('bank_accounts')
    .innerJoin('user_verifications', (j) => j.onRef('user_verifications.user_id', '=', 'bank_accounts.user_id'))
    .select('bank_accounts.user_id')
    .where('bank_accounts.user_id', '=', userId)
    .where('user_verifications.method_id', '=', methodId)
    .where('user_verifications.status', 'in', [VerificationStatus.assigned, VerificationStatus.reset])
    .where((eb) => eb.or([eb('bank_accounts.locked', '=', 1), eb('bank_accounts.confirmed_at', 'is not', null)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** A user's account, deposits and payouts go with the user. */
export async function deleteBankData(ex: Executor, userId: number): Promise<void> {
  const b = bdb(ex);
  await b.deleteFrom('bank_payouts').where('user_id', '=', userId).execute();
  await b.deleteFrom('bank_accounts').where('user_id', '=', userId).execute();
}

/** Writes the new row only over the row that was read (or none): the loser of a race writes nothing. */
export async function claimRow(trx: Executor, previous: BankAccountTable | undefined, row: BankAccountTable): Promise<boolean> {
  const b = bdb(trx);
  if (!previous) {
    const r = await b
      .insertInto('bank_accounts')
      .values(row)
      .onConflict((oc) => oc.column('user_id').doNothing())
      .executeTakeFirst();
    return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }
  const { user_id: userId, ...rest } = row;
  const r = await b.updateTable('bank_accounts').set(rest).where('user_id', '=', userId).where('round', '=', previous.round).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Records a payout to make by hand, once per user and round; false when it was recorded already. */
export async function insertPayout(ex: Executor, row: Insertable<BankPayoutTable>): Promise<boolean> {
  const inserted = await bdb(ex)
    .insertInto('bank_payouts')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'round']).doNothing())
    .executeTakeFirst();
  return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Payouts (of one status, or all), pending first then newest; at most `limit`. */
export function payoutRows(ex: Executor, status: 'pending' | 'paid' | undefined, limit: number): Promise<Selectable<BankPayoutTable>[]> {
  let q = bdb(ex).selectFrom('bank_payouts').selectAll();
  if (status) q = q.where('status', '=', status);
  return q.orderBy('status', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export function findPayoutUser(ex: Executor, id: number): Promise<{ user_id: number } | undefined> {
  return bdb(ex).selectFrom('bank_payouts').select(['user_id']).where('id', '=', id).executeTakeFirst();
}

/** Marks a pending payout paid and forgets its instruction; false when no pending payout has the id. */
export async function markPayoutRowPaid(ex: Executor, id: number, at: string, by: string): Promise<boolean> {
  const r = await bdb(ex)
    .updateTable('bank_payouts')
    .set({ status: 'paid', sealed_instruction: null, paid_at: at, paid_by: by })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return r.numUpdatedRows !== 0n;
}
