import type { Executor } from '../store/database.js';

/** An admin session with its admin, found by the SHA-256 hex of its token. */
export interface AdminSessionWithAdmin {
  id: number;
  email: string;
  last_seen_at: string;
  expires_at: string;
}

export function findAdminSession(ex: Executor, tokenHash: string): Promise<AdminSessionWithAdmin | undefined> {
  return ex
    .selectFrom('admin_sessions')
    .innerJoin('admins', 'admins.id', 'admin_sessions.admin_id')
    .select(['admins.id', 'admins.email', 'admin_sessions.last_seen_at', 'admin_sessions.expires_at'])
    .where('admin_sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Starts a session; sessions of anyone that have ended are cleared on the way (few rows at admin scale). */
export async function createAdminSession(ex: Executor, tokenHash: string, adminId: number, now: Date, expiresAt: string): Promise<void> {
  await ex
    .insertInto('admin_sessions')
    .values({ token_hash: tokenHash, admin_id: adminId, created_at: now.toISOString(), last_seen_at: now.toISOString(), expires_at: expiresAt })
    .execute();
  await ex.deleteFrom('admin_sessions').where('expires_at', '<=', now.toISOString()).execute();
}

export async function touchAdminSession(ex: Executor, tokenHash: string, now: Date): Promise<void> {
  await ex.updateTable('admin_sessions').set({ last_seen_at: now.toISOString() }).where('token_hash', '=', tokenHash).execute();
}

export async function endAdminSession(ex: Executor, tokenHash: string): Promise<void> {
  await ex.deleteFrom('admin_sessions').where('token_hash', '=', tokenHash).execute();
}
