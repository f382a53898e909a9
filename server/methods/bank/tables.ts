import type { Generated } from 'kysely';
import { withOwnTables } from '../../store/database.js';

/** The Bank tables (migration `0023-bank`). */
// A type alias (not an interface) so it satisfies kysely's `withTables` index-signature constraint.
export type BankTables = {
  bank_accounts: BankAccountTable;
  bank_payouts: BankPayoutTable;
};

/** The account a user's current deposits went to, and those deposits (one row per user). */
export interface BankAccountTable {
  user_id: number;
  /** `iban` or `us`. */
  kind: string;
  /** ISO 3166-1 alpha-2 of the account (the IBAN's country, or US). */
  country: string;
  currency: string;
  /** The last four characters of the account number: the only part kept in clear. */
  last4: string;
  /** HMAC-SHA256 (server secret, bound to the user) of the full account number. */
  account_hash: string;
  /** The account holder's name against the user's: `full`, `last_name`, `none`; null when the user has no name. */
  holder_match: string | null;
  /** Whose name was compared: `open_banking` (the bank's record) or `entered_name` (what the user typed). */
  name_checked_by: string;
  /** The payout provider that was handed the deposits (`manual`). */
  provider: string;
  /** HMAC-SHA256 (server secret, bound to user and round) of the two amounts in cents, sorted. */
  amounts_hash: string;
  /** 1 for the user's first deposits, one more for each later pair (never reused: payouts are keyed by it). */
  round: number;
  /** The round this account entry began with (rounds of earlier, reopened entries keep their numbers). */
  first_round: number;
  sent_at: string;
  expires_at: string;
  /** Entries tried in this round (wrong or right; counted before comparing). */
  attempts: number;
  /** 1 once the tries ran out and the method was rejected: a reopened method starts anew. */
  locked: number;
  confirmed_at: string | null;
}

/** A payout for an operator to make by hand (the default payout provider). */
export interface BankPayoutTable {
  id: Generated<number>;
  user_id: number;
  round: number;
  provider: string;
  last4: string;
  country: string;
  /** The instruction (amounts, full account, holder) sealed under `SEAL_LABELS.bankPayout`; null once paid. */
  sealed_instruction: string | null;
  /** `pending` or `paid`. */
  status: string;
  created_at: string;
  paid_at: string | null;
  /** E-mail of the admin (or `cli`) who marked it paid. */
  paid_by: string | null;
}

/** The same connection or transaction, typed with the Bank tables as well. */
export const bdb = withOwnTables<BankTables>();
