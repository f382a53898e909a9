/** The Bank method's session contract (`bank`, spec method 11): micro-deposits to the user's account. */
import * as z from 'zod/mini';
import { isoDateTime, methodBase } from './base.js';

/** The account's scheme: an IBAN, or a US account (ABA routing number and account number). */
export const BankAccountKind = z.enum(['iban', 'us']);
export type BankAccountKind = z.infer<typeof BankAccountKind>;

/** Needs of the bank step. */
export const BankNeeds = z.object({
  /**
   * `account`: the user enters their account details. `amounts`: two small deposits were sent
   * (or are on their way); the user comes back and enters them, through the same link. `expired`:
   * the deposits were not confirmed in time; the user enters the account again for new ones
   * while `new_deposits_left` (the same `…/bank/account` call).
   */
  stage: z.enum(['account', 'amounts', 'expired']),
  /** The account the deposits go to, masked (country and last four characters); null in `account`. */
  account: z.nullable(z.object({ kind: BankAccountKind, country: z.string(), last4: z.string(), currency: z.string() })),
  /** When the deposits were asked for, and when they stop being accepted. */
  sent_at: z.nullable(isoDateTime),
  expires_at: z.nullable(isoDateTime),
  /** Wrong entries the user may still make before the method is rejected (3 at first). */
  attempts_left: z.int(),
  /** New pairs of deposits the user may still ask for after an expiry. */
  new_deposits_left: z.int(),
});
export type BankNeeds = z.infer<typeof BankNeeds>;

export const BankMethodView = z.object({ ...methodBase, key: z.literal('bank'), needs: BankNeeds });

/**
 * `POST /session/methods/bank/account` `{ kind, holder_name, iban | routing_number + account_number }`,
 * in stage `account` or `expired`: two random deposits (1–99 cents each, different) are drawn and
 * handed to the payout provider. → 200 `MethodResult` (stage `amounts`). 422 `api_validation_error`
 * naming the field for an IBAN that fails its checksum or country format, or a routing number whose
 * ABA check digit is wrong; 409 `session_method_state_error` while deposits are waiting to be
 * entered; 429 `session_attempts_exceeded` in stage `expired` with no new deposits left (the
 * method is `rejected`).
 */
export const BankAccountRequest = z.object({
  kind: BankAccountKind,
  /** As on the bank statement. */
  holder_name: z.string().check(z.minLength(1), z.maxLength(140)),
  /** For `iban`: spaces allowed, any case. */
  iban: z.optional(z.string().check(z.maxLength(64))),
  /** For `us`: 9 digits. */
  routing_number: z.optional(z.string().check(z.maxLength(16))),
  /** For `us`: 4 to 17 digits. */
  account_number: z.optional(z.string().check(z.maxLength(32))),
});
export type BankAccountRequest = z.infer<typeof BankAccountRequest>;

/**
 * `POST /session/methods/bank/verify` `{ amounts: [cents, cents] }`, in stage `amounts`: the two
 * deposits, in cents, in either order. → 200 `MethodResult` (method `complete`, or
 * `complete_in_review` when the account holder's name does not match the user's). 422
 * `session_code_invalid` with `details.attempts_left`; 429 `session_attempts_exceeded` after the
 * 3rd wrong entry (the method is `rejected`); 410 `session_code_expired` once the deposits expired;
 * 409 `session_method_state_error` when no deposits were sent.
 */
export const BankVerifyRequest = z.object({
  amounts: z.tuple([z.int().check(z.minimum(1), z.maximum(99)), z.int().check(z.minimum(1), z.maximum(99))]),
});
export type BankVerifyRequest = z.infer<typeof BankVerifyRequest>;
