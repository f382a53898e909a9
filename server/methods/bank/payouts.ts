import type { AppContext } from '../../context.js';
import { sealerFor, SEAL_LABELS, type Sealer } from '../../crypto/seal.js';
import { writeOutboxMessage } from '../../notify/outbox.js';
import { PermanentFailure } from '../../queue/queue.js';
import { findUserById } from '../../store/repos/users-repo.js';
import { type BankAccount, centsText, last4 } from './rules.js';
import { insertPayout } from './repo.js';

/** The queue payouts wait in until their provider took them (durable: nothing is lost on a crash). */
export const BANK_PAYOUT_QUEUE = 'bank-payouts';

/** What a payout provider is asked to pay: two small deposits to one account. */
export interface PayoutInstruction {
  userId: number;
  /** With `userId`, names the payout: a provider must pay a (user, round) once, however often it is called. */
  round: number;
  currency: string;
  /** In cents (1–99 each). */
  amounts: [number, number];
  account: BankAccount;
}

/**
 * Pays micro-deposits. Called from the payout queue's worker, so a call may be repeated after a
 * crash or an error: it must be idempotent per (userId, round). A thrown error retries the job;
 * `PermanentFailure` ends it.
 */
export interface PayoutProvider {
  readonly name: string;
  pay(instruction: PayoutInstruction): Promise<void>;
}

/** A queued payout: the instruction sealed, so the amounts and the account are never in clear in the job table. */
export interface BankPayoutJob {
  userId: number;
  round: number;
  provider: string;
  sealed: string;
}

export function payoutSealer(secret: string): Sealer {
  return sealerFor(secret, SEAL_LABELS.bankPayout);
}

/**
 * The default provider: an operator pays by hand. The instruction goes to the dashboard's payouts
 * list (sealed until marked paid) and a notice to the outbox that names no amount and no account
 * number (the dashboard shows them to a signed-in admin).
 */
export class ManualPayoutProvider implements PayoutProvider {
  readonly name = 'manual';
  constructor(private readonly ctx: AppContext) {}

  async pay(instruction: PayoutInstruction): Promise<void> {
    const { ctx } = this;
    const now = ctx.clock.now().toISOString();
    const inserted = await insertPayout(ctx.db, {
      user_id: instruction.userId,
      round: instruction.round,
      provider: this.name,
      last4: last4(instruction.account),
      country: instruction.account.country,
      sealed_instruction: payoutSealer(ctx.config.secret).seal(JSON.stringify(instruction)),
      status: 'pending',
      created_at: now,
      paid_at: null,
      paid_by: null,
    });
    if (!inserted) return; // a repeated job: listed already
    await writeOutboxMessage(ctx.config.dataDir, {
      channel: 'email',
      to: 'operator',
      subject: `Bank payout to make: 2 deposits in ${instruction.currency} to the account ending ${last4(instruction.account)}`,
      text: [
        `Two small deposits (under ${centsText(99)} ${instruction.currency} each) wait to be paid to the ${instruction.account.country} account ending ${last4(instruction.account)}.`,
        'Open the dashboard (Bank payouts) or run `verity bank-payouts list` to see the amounts and the account, pay them, then mark the payout paid.',
      ].join('\n'),
      locale: 'en',
      created_at: now,
      user_id: instruction.userId,
    });
  }
}

/** The payout providers by name; a new provider (a bank's payout API) is one more entry. */
export function payoutProviders(ctx: AppContext): ReadonlyMap<string, PayoutProvider> {
  const manual = new ManualPayoutProvider(ctx);
  return new Map([[manual.name, manual]]);
}

/** The provider new deposits are handed to. */
export const DEFAULT_PAYOUT_PROVIDER = 'manual';

/** Consumes the payout queue: opens each instruction and hands it to its provider. */
export function registerBankPayoutWorker(ctx: AppContext): void {
  const providers = payoutProviders(ctx);
  ctx.queue.process<BankPayoutJob>(
    BANK_PAYOUT_QUEUE,
    async (job) => {
      // A user deleted meanwhile: nothing is paid (their rows and outbox messages are gone).
      if (!(await findUserById(ctx.db, job.userId))) return;
      const provider = providers.get(job.provider);
      if (!provider) throw new PermanentFailure(`unknown payout provider ${job.provider}`);
      const instruction = JSON.parse(payoutSealer(ctx.config.secret).open(job.sealed)) as PayoutInstruction;
      await provider.pay(instruction);
    },
    { concurrency: 1 },
  );
}
