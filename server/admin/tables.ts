import type { Generated, Kysely, Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Executor } from '../store/database.js';

/** Tables of migration `0005-dashboard`. A type alias so it fits kysely's `withTables`. */
export type DashboardTables = {
  audit_log: AuditLogTable;
  admin_invites: AdminInviteTable;
  admin_totp: AdminTotpTable;
  signup_requests: SignupRequestTable;
};

export interface AuditLogTable {
  id: Generated<number>;
  admin_id: number | null;
  /** Kept as it was at the time, so the record reads the same after the admin is gone. */
  admin_email: string;
  /** e.g. `user.delete`, `api_key.revoke`, `template.update`. */
  action: string;
  target_type: string;
  target_id: string | null;
  /** JSON: ids and changed field names, never PII values or secrets. */
  details: string;
  ip: string | null;
  created_at: string;
}

export interface AdminInviteTable {
  /** SHA-256 hex of the 256-bit invite token. */
  token_hash: string;
  email: string;
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface AdminTotpTable {
  admin_id: number;
  /** The base32 secret sealed with the server secret (AES-256-GCM). */
  sealed_secret: string;
  /** Null while set up but not yet confirmed with a first code. */
  enabled_at: string | null;
  /** Last accepted time step: a code is accepted once (no replay inside its window). */
  last_counter: number | null;
  created_at: string;
}

export interface SignupRequestTable {
  /** SHA-256 hex of the token the signing-up browser holds. */
  token_hash: string;
  user_id: number;
  /** Keyed hash (server secret) of the 6-digit e-mail code. */
  code_hash: string;
  attempts: number;
  expires_at: string;
  confirmed_at: string | null;
  created_at: string;
}

export type DashboardDatabase = Database & DashboardTables;
export type DashboardExecutor = Kysely<DashboardDatabase> | Transaction<DashboardDatabase>;

/** The same connection or transaction, typed with the dashboard tables as well. */
export function ddb(ex: Executor): DashboardExecutor {
  return ex.withTables<DashboardTables>() as DashboardExecutor;
}
