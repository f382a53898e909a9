import type { Generated, Kysely, Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Executor } from '../store/database.js';

/** Tables of migration `0003-sessions` (the end-user side); its `verification_codes` belongs to the code methods (`server/methods/code/tables.ts`). */
// A type alias (not an interface) so it satisfies kysely's `withTables` index-signature constraint.
export type SessionTables = {
  user_sessions: UserSessionTable;
  method_state: MethodStateTable;
  session_uploads: SessionUploadTable;
  handoff_tokens: HandoffTokenTable;
};

export interface UserSessionTable {
  id: Generated<number>;
  /** SHA-256 hex of the 256-bit random session token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  /** 1 when the session was claimed through a cross-device hand-off token. */
  via_handoff: number;
  created_at: string;
  last_seen_at: string;
  /** Idle expiry: pushed forward on every authenticated call. */
  expires_at: string;
  revoked_at: string | null;
}

export interface MethodStateTable {
  user_id: number;
  method_key: string;
  /** JSON, shape per owner (see `server/session/state.ts`). */
  data: string;
  updated_at: string;
}

export interface SessionUploadTable {
  id: string;
  user_id: number;
  method_key: string;
  document_type: string | null;
  side: string | null;
  challenge_id: string | null;
  step_index: number | null;
  step: string | null;
  blob_key: string;
  media_type: string;
  size: number;
  /** JSON: device quality report or face evidence, as sent. */
  meta: string;
  created_at: string;
}

export interface HandoffTokenTable {
  token_hash: string;
  user_id: number;
  /** The desktop session that asked for it (receives the progress events). */
  session_id: number;
  short_code: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export type SessionDatabase = Database & SessionTables;
export type SessionExecutor = Kysely<SessionDatabase> | Transaction<SessionDatabase>;

/** The same connection or transaction, typed with the session tables as well. */
export function sdb(ex: Executor): SessionExecutor {
  return ex.withTables<SessionTables>() as SessionExecutor;
}
