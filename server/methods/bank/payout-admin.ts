import type { FastifyRequest } from 'fastify';
import type { BankPayout } from '../../../src/api/admin/bank-payouts.js';
import { recordAudit } from '../../admin/audit.js';
import type { AppContext } from '../../context.js';
import type { PayoutInstruction } from './payouts.js';
import { payoutSealer } from './payouts.js';
import { centsText } from './rules.js';
import { findPayoutUser, markPayoutRowPaid, payoutRows } from './repo.js';

/** A payout as the dashboard and the CLI show it; the amounts and the account only while it is pending. */
export type PayoutView = BankPayout;

/** Payouts, pending first then newest (at most `limit`). Opening the instructions is audited by the caller. */
export async function listPayouts(ctx: AppContext, options: { status?: 'pending' | 'paid' | undefined; limit?: number } = {}): Promise<PayoutView[]> {
  const rows = await payoutRows(ctx.db, options.status, options.limit ?? 200);
  const sealer = payoutSealer(ctx.config.secret);
  return rows.map((r) => {
    let pay: PayoutView['pay'] = null;
    if (r.status === 'pending' && r.sealed_instruction) {
      const i = JSON.parse(sealer.open(r.sealed_instruction)) as PayoutInstruction;
      pay = {
        currency: i.currency,
        amounts: [centsText(i.amounts[0]), centsText(i.amounts[1])],
        holder_name: i.account.holderName,
        iban: i.account.kind === 'iban' ? i.account.iban : null,
        routing_number: i.account.kind === 'us' ? i.account.routingNumber : null,
        account_number: i.account.kind === 'us' ? i.account.accountNumber : null,
      };
    }
    return {
      id: r.id,
      user_id: r.user_id,
      status: r.status === 'paid' ? 'paid' : 'pending',
      provider: r.provider,
      country: r.country,
      last4: r.last4,
      created_at: r.created_at,
      paid_at: r.paid_at,
      paid_by: r.paid_by,
      pay,
    };
  });
}

/**
 * Marks a pending payout paid, once, and forgets its instruction (the amounts and the full
 * account number): after this only the account's last four characters remain. Audited in the
 * same transaction. False when there is no such pending payout.
 */
export async function markPayoutPaid(
  ctx: AppContext,
  id: number,
  by: { email: string; req: Pick<FastifyRequest, 'admin'> & { ip?: string | undefined }; actor?: { id: number | null; email: string } },
): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await findPayoutUser(trx, id);
    const paid = await markPayoutRowPaid(trx, id, ctx.clock.now().toISOString(), by.email);
    if (!paid || !row) return false;
    await recordAudit(trx, ctx.clock, by.req, {
      action: 'bank_payout.mark_paid',
      targetType: 'bank_payout',
      targetId: id,
      details: { user_id: row.user_id },
      ...(by.actor ? { actor: by.actor } : {}),
    });
    return true;
  });
}
