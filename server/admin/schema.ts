import type { Generated, Selectable } from 'kysely';

/**
 * The dashboard's own tables created by migration 0002-webhooks: admin sign-in sessions and the
 * notices the dashboard shows. Added to the shared `Database` interface by declaration merging, as
 * webhooks/schema.ts does for its tables.
 */
export interface AdminNoticeTable {
  id: Generated<number>;
  kind: string;
  message: string;
  /** JSON with details for the dashboard (e.g. the endpoint id). */
  details: string | null;
  created_at: string;
  read_at: string | null;
}

export interface AdminSessionTable {
  /** SHA-256 hex of the random session token; the token itself is only in the cookie. */
  token_hash: string;
  admin_id: number;
  created_at: string;
  last_seen_at: string;
  /** Absolute end of the session, whatever the activity. */
  expires_at: string;
}

declare module '../store/schema.js' {
  interface Database {
    admin_notices: AdminNoticeTable;
    admin_sessions: AdminSessionTable;
  }
}

export type AdminNoticeRow = Selectable<AdminNoticeTable>;
