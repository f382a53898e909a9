import type { BankAccountRequest, BankVerifyRequest, MethodResult } from '../../../src/api/contract.js';
import type { AppContext } from '../../context.js';
import { safeEqual } from '../../crypto/tokens.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../errors.js';
import { isOpen } from '../../session/status.js';
import { lockVerification, markStarted } from '../../session/verification-repo.js';
import type { Executor } from '../../store/database.js';
import type { UserRow } from '../../store/schema.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import { sqlTimestamp } from '../../timestamps.js';
import type { SessionKit } from '../method.js';
import { holderMatch, openBankingProvider, OpenBankingUnavailable, type HolderMatch, type PersonName } from './open-banking.js';
import { BANK_PAYOUT_QUEUE, DEFAULT_PAYOUT_PROVIDER, payoutSealer, type BankPayoutJob, type PayoutInstruction } from './payouts.js';
import { claimRow, confirmOnce, findAccount, isStaleAfterReopen, lockOnce, takeTry } from './repo.js';
import { accountHash, amountsHash, attemptsLeft, BANK_MAX_ATTEMPTS, BANK_MAX_ROUNDS, checkAccount, drawAmounts, last4, type BankAccount } from './rules.js';
import type { BankAccountTable } from './tables.js';

/** Spec method id of Bank. */
export const BANK_METHOD_ID = 11;

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the user's account row means for the step now. */
export type BankStage = 'account' | 'amounts' | 'expired';

/** The stage of a (non-stale) row at `now`. */
export function stageOf(row: BankAccountTable | undefined, now: Date): BankStage {
  if (!row) return 'account';
  return row.expires_at <= now.toISOString() ? 'expired' : 'amounts';
}

/** New pairs of deposits the user may still ask for after the row's current round. */
export function newDepositsLeft(row: BankAccountTable | undefined): number {
  return row ? Math.max(0, BANK_MAX_ROUNDS - (row.round - row.first_round + 1)) : BANK_MAX_ROUNDS - 1;
}

/** The user's current row, or undefined when there is none or it belongs to a reopened method. */
export async function currentAccount(ex: Executor, userId: number, methodId: number): Promise<BankAccountTable | undefined> {
  const row = await findAccount(ex, userId);
  if (!row || (await isStaleAfterReopen(ex, userId, methodId))) return undefined;
  return row;
}

/** The user's own name, for the holder check; null when the user record has no last name. */
function userName(user: UserRow): PersonName | null {
  return user.last_name ? { firstName: user.first_name ?? '', lastName: user.last_name } : null;
}

/** The holder's name against the user's: the bank's record when an open-banking provider answers, else what the user typed. */
async function checkHolder(ctx: AppContext, user: UserRow, account: BankAccount): Promise<{ match: HolderMatch | null; by: 'open_banking' | 'entered_name' }> {
  const name = userName(user);
  if (!name) return { match: null, by: 'entered_name' };
  const provider = openBankingProvider(ctx.config);
  if (provider) {
    try {
      return { match: (await provider.checkAccountHolder(account, name)).match, by: 'open_banking' };
    } catch (error: unknown) {
      if (!(error instanceof OpenBankingUnavailable)) throw error;
      ctx.log.warn({ provider: provider.name, reason: error.message }, 'bank: open-banking provider unavailable, the entered name is compared instead');
    }
  }
  return { match: holderMatch(name, account.holderName), by: 'entered_name' };
}

/**
 * `POST /session/methods/bank/account`: checks the account, draws two amounts and queues their
 * payout in the transaction that stores their hash (the amounts exist in clear only in the sealed
 * job). In stage `expired` it starts a new round, while rounds are left. A row is claimed by a
 * conditional write, so two requests at once cannot both send deposits.
 */
export async function submitAccount(kit: SessionKit, user: UserRow, body: BankAccountRequest): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'bank');
  const now = ctx.clock.now();
  // Read once: every decision below, and the conditional write, are about this same row.
  const previous = await findAccount(ctx.db, user.id);
  const current = previous && !(await isStaleAfterReopen(ctx.db, user.id, v.method_id)) ? previous : undefined;
  const stage = stageOf(current, now);
  if (stage === 'amounts') throw sessionErrors.state('Two deposits are on their way to your account: enter them when they arrive.');
  if (stage === 'expired' && newDepositsLeft(current) === 0) {
    await reject(kit, user.id, current!, 'no_new_deposits');
    throw sessionErrors.attemptsExceeded('No new deposits are left.');
  }
  const checked = checkAccount(body);
  if ('errors' in checked) throw sessionErrors.validation(checked.errors);
  const { account } = checked;
  const holder = await checkHolder(ctx, user, account);
  const { bank_deposit_ttl_days } = await readSettings(ctx.db);
  const round = (previous?.round ?? 0) + 1;
  const amounts = drawAmounts();
  const row: BankAccountTable = {
    user_id: user.id,
    kind: account.kind,
    country: account.country,
    currency: account.currency,
    last4: last4(account),
    account_hash: accountHash(ctx.config.secret, user.id, account),
    holder_match: holder.match,
    name_checked_by: holder.by,
    provider: DEFAULT_PAYOUT_PROVIDER,
    amounts_hash: amountsHash(ctx.config.secret, user.id, round, amounts),
    round,
    first_round: stage === 'expired' ? current!.first_round : round,
    sent_at: now.toISOString(),
    expires_at: new Date(now.getTime() + bank_deposit_ttl_days * DAY_MS).toISOString(),
    attempts: 0,
    locked: 0,
    confirmed_at: null,
  };
  const instruction: PayoutInstruction = { userId: user.id, round, currency: account.currency, amounts, account };
  const job: BankPayoutJob = { userId: user.id, round, provider: row.provider, sealed: payoutSealer(ctx.config.secret).seal(JSON.stringify(instruction)) };
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await claimRow(trx, previous, row))) throw sessionErrors.state('Deposits were just asked for: enter them when they arrive.');
    await ctx.queue.enqueue(BANK_PAYOUT_QUEUE, job, { maxAttempts: 10 }, trx);
    if (v.started_at === null) await markStarted(trx, user.id, v.method_id, now);
  });
  kit.changed(user.id);
  return kit.result(user, 'bank');
}

/**
 * `POST /session/methods/bank/verify`. Every entry takes a try first, in one conditional update
 * (parallel guesses cannot exceed the limit); the amounts are compared as keyed hashes in
 * constant time; a right pair completes the method once (a conditional update), so the same
 * right pair sent twice at once completes it once. The 3rd wrong entry rejects the method, unless
 * a right one completed it first.
 */
export async function verifyDeposits(kit: SessionKit, user: UserRow, body: BankVerifyRequest): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'bank');
  const now = ctx.clock.now();
  const row = await currentAccount(ctx.db, user.id, v.method_id);
  if (!row) throw sessionErrors.state('Enter your account first: the deposits go to it.');
  if (stageOf(row, now) === 'expired') throw sessionErrors.codeExpired('The deposits expired. Enter your account again to get new ones.');
  const tries = await takeTry(ctx.db, user.id);
  // No try left: the request that used the last one rejects the method (when it was wrong); this
  // one must not, or it could reject a right entry still being checked.
  if (tries === undefined) throw sessionErrors.attemptsExceeded('Too many wrong amounts.');
  const right = safeEqual(amountsHash(ctx.config.secret, user.id, row.round, body.amounts), row.amounts_hash);
  if (!right) {
    if (tries >= BANK_MAX_ATTEMPTS) {
      await reject(kit, user.id, row, 'attempts_exceeded');
      throw sessionErrors.attemptsExceeded('Too many wrong amounts.');
    }
    throw sessionErrors.codeInvalid(attemptsLeft(tries));
  }
  const confirmedAt = now.toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await confirmOnce(trx, user.id, row.round, confirmedAt))) throw sessionErrors.state('This step is already done.');
    const current = await lockVerification(trx, user.id, v.method_id);
    if (!current || !isOpen(current.status)) throw sessionErrors.state('This step is already done.');
    // Submitted, then decided at once. The deposits prove the user controls the account; a holder
    // name that is not the user's leaves that link to a reviewer.
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing);
    await moveVerification(
      trx,
      ctx.clock,
      user.id,
      v.method_id,
      row.holder_match === 'full' ? VerificationStatus.complete : VerificationStatus.complete_in_review,
      {
        attributes: { ...accountAttributes(row), deposits_confirmed_at: sqlTimestamp(confirmedAt) },
        remarks: row.holder_match === 'full' ? null : 'The account holder name does not match the user.',
      },
    );
  });
  kit.changed(user.id);
  return kit.result(user, 'bank');
}

/** The verification's attributes (spec 6.3) for an account row: what was checked, and how. */
export function accountAttributes(row: BankAccountTable): Record<string, unknown> {
  return {
    bank_country: row.country,
    account_type: row.kind,
    account_last4: row.last4,
    currency: row.currency,
    account_holder_name_match: row.holder_match,
    account_holder_checked_by: row.name_checked_by,
    payout_provider: row.provider,
    deposit_rounds: row.round - row.first_round + 1,
  };
}

/** Rejects the method once (tries or rounds ran out); only the request that locks the row moves it. */
async function reject(kit: SessionKit, userId: number, row: BankAccountTable, why: 'attempts_exceeded' | 'no_new_deposits'): Promise<void> {
  const remarks = why === 'attempts_exceeded' ? 'Too many wrong amounts.' : 'The deposits expired and no new ones are left.';
  const { ctx } = kit;
  const moved = await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockOnce(trx, userId))) return false;
    await moveVerification(trx, ctx.clock, userId, BANK_METHOD_ID, VerificationStatus.processing);
    await moveVerification(trx, ctx.clock, userId, BANK_METHOD_ID, VerificationStatus.rejected, {
      attributes: { ...accountAttributes(row), deposits_confirmed_at: null, rejected_for: why },
      remarks,
    });
    return true;
  });
  if (moved) kit.changed(userId);
}
