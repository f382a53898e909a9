import { withOwnTables } from '../../store/database.js';
import type { CodeTables } from '../code/tables.js';

/** The Two-Step tables (migration `0018-two-step`). */
// A type alias (not an interface) so it satisfies kysely's `withTables` index-signature constraint.
export type TwoStepTables = {
  two_step_factors: TwoStepFactorTable;
  two_step_recovery_codes: TwoStepRecoveryCodeTable;
};

/** A user's second factor: one row, pending until a first code confirms it. */
export interface TwoStepFactorTable {
  user_id: number;
  /** `totp` or `sms`. */
  factor: string;
  /** The authenticator secret (base32), sealed under `SEAL_LABELS.twoStepTotpSecret`; null for SMS. */
  sealed_secret: string | null;
  /** The SMS phone (E.164) and its country calling code; null for an authenticator. */
  phone: string | null;
  country_code: number | null;
  /** When a first code confirmed the factor; null while pending. */
  enabled_at: string | null;
  /** When a pending authenticator set-up stops accepting its first code. */
  pending_expires_at: string | null;
  /** The last TOTP time step accepted: a code of that step or an earlier one is refused. */
  last_counter: number | null;
  /** Codes tried since the method was last opened (wrong or right; counted before comparing). */
  attempts: number;
  /** 1 once the tries ran out and the method was rejected: a reopened method starts counting anew. */
  locked: number;
  created_at: string;
}

export interface TwoStepRecoveryCodeTable {
  user_id: number;
  /** HMAC-SHA256 (server secret, bound to the user) of the normalised code. */
  code_hash: string;
  used_at: string | null;
}

/** The same connection or transaction, typed with the Two-Step tables (and the code table) as well. */
export const tdb = withOwnTables<TwoStepTables & CodeTables>();
