import { withOwnTables } from '../../store/database.js';

/** The one-time code table (created by migration `0003-sessions`). */
// A type alias (not an interface) so it satisfies kysely's `withTables` index-signature constraint.
export type CodeTables = {
  verification_codes: VerificationCodeTable;
};

export interface VerificationCodeTable {
  user_id: number;
  /** `email` or `phone`: one live code per user and method. */
  method_key: string;
  /** HMAC-SHA256 (server secret) of the code. */
  code_hash: string;
  expires_at: string;
  /** Wrong tries against this code. */
  attempts: number;
  used_at: string | null;
  sent_at: string;
  /** Start of the current hourly window of sends, and how many sends it holds (resend limit). */
  window_started_at: string;
  sends_in_window: number;
}

/** The same connection or transaction, typed with the code table as well. */
export const cdb = withOwnTables<CodeTables>();
