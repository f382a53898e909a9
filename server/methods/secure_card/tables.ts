import type { Generated } from 'kysely';
import { withOwnTables } from '../../store/database.js';

/** The Secure Card table (migration `0022-secure-card`). */
// A type alias (not an interface) so it satisfies kysely's `withTables` index-signature constraint.
export type SecureCardTables = {
  secure_card_checks: SecureCardCheckTable;
};

/**
 * One card submitted and what was decided. Never the card number: only what the device reported
 * (its last four digits, brand, length, expiry, Luhn result) and the server's outcome.
 */
export interface SecureCardCheckTable {
  id: Generated<number>;
  user_id: number;
  /** The masked picture (`session_uploads.id`); null when the device read no number and sent none. */
  upload_id: string | null;
  last4: string | null;
  brand: string | null;
  pan_length: number | null;
  expiry_month: number | null;
  expiry_year: number | null;
  /** 1 or 0, as the device reported it. */
  luhn_valid: number;
  /** `matched`, `uncertain`, `mismatch`, or null when not compared. */
  name_match: string | null;
  /** `complete`, `review` or `rejected`. */
  outcome: string;
  reason: string | null;
  source: string;
  created_at: string;
}

/** The same connection or transaction, typed with the Secure Card table as well. */
export const cdb = withOwnTables<SecureCardTables>();
