/**
 * The dashboard's Bank payouts contract (`GET /admin/api/bank-payouts`), shared by the server's
 * response schema and the dashboard's types so neither side writes the shape by hand.
 */
import * as z from 'zod/mini';

/** A micro-deposit payout; what to pay (amounts and account) only while it is pending. */
export const BankPayout = z.object({
  id: z.int(),
  user_id: z.int(),
  status: z.enum(['pending', 'paid']),
  provider: z.string(),
  country: z.string(),
  last4: z.string(),
  created_at: z.string(),
  paid_at: z.nullable(z.string()),
  paid_by: z.nullable(z.string()),
  pay: z.nullable(
    z.object({
      currency: z.string(),
      amounts: z.tuple([z.string(), z.string()]),
      holder_name: z.string(),
      iban: z.nullable(z.string()),
      routing_number: z.nullable(z.string()),
      account_number: z.nullable(z.string()),
    }),
  ),
});
export type BankPayout = z.infer<typeof BankPayout>;

/** The Bank method's providers as configured on the server (never the open-banking token). */
export const BankProviders = z.object({
  /** Where new micro-deposits go (`manual`: the dashboard and the outbox). */
  payout: z.string(),
  payout_available: z.array(z.string()),
  /** Origin of the open-banking provider of the account-holder name check, or null (none). */
  open_banking: z.nullable(z.string()),
});
export type BankProviders = z.infer<typeof BankProviders>;

export const BankPayoutsAnswer = z.object({ data: z.array(BankPayout), providers: BankProviders });
export type BankPayoutsAnswer = z.infer<typeof BankPayoutsAnswer>;
