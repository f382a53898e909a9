import type { AppContext } from '../context.js';
import type { Executor } from '../store/database.js';
import type { UserRow } from '../store/schema.js';
import { findUserById, updateUserRow } from '../store/repos/users-repo.js';
import { countryOfIp } from './ip-country.js';
import { deleteExpiredHandoffTokens } from './handoff-repo.js';
import { deleteDeadSessions, findSessionByHash, insertSession, revokeUserSessions, touchSession } from './sessions-repo.js';
import { keyedHash, randomToken, safeEqual, sha256Hex } from './tokens.js';

/** Sessions end after this long without a call (issue 4: 1 h idle). */
export const SESSION_IDLE_MS = 60 * 60 * 1000;
/** The idle expiry and `last_activity` are written at most this often, so reads stay reads. */
const TOUCH_RESOLUTION_MS = 30_000;

export interface SessionRecord {
  id: number;
  userId: number;
  tokenHash: string;
  viaHandoff: boolean;
  expiresAt: string;
}

export interface Authenticated {
  session: SessionRecord;
  user: UserRow;
}

/** Starts a session for a user; the token goes to the browser once, only its hash is kept. */
export async function createSession(ex: Executor, now: Date, userId: number, viaHandoff: boolean): Promise<{ token: string; session: SessionRecord }> {
  const token = randomToken();
  const tokenHash = sha256Hex(token);
  const iso = now.toISOString();
  await pruneUser(ex, userId, now);
  const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS).toISOString();
  const id = await insertSession(ex, {
    token_hash: tokenHash,
    user_id: userId,
    via_handoff: viaHandoff ? 1 : 0,
    created_at: iso,
    last_seen_at: iso,
    expires_at: expiresAt,
    revoked_at: null,
  });
  return { token, session: { id, userId, tokenHash, viaHandoff, expiresAt } };
}

/**
 * The session a token belongs to, when it is live: not revoked, not idle-expired, and its user
 * still exists and is not Banned (a banned user's sessions are revoked on sight). Pushes the idle
 * expiry forward and records the user's IP and last activity.
 */
export async function authenticate(ctx: AppContext, token: string, ip: string | null): Promise<Authenticated | null> {
  if (!token || token.length > 200) return null;
  const row = await findSessionByHash(ctx.db, sha256Hex(token));
  const now = ctx.clock.now();
  if (!row || row.revoked_at !== null || row.expires_at <= now.toISOString()) return null;
  const user = await findUserById(ctx.db, row.user_id);
  if (!user) return null;
  if (user.status === 'Banned') {
    await revokeUserSessions(ctx.db, user.id, now);
    return null;
  }
  let expiresAt = row.expires_at;
  if (new Date(row.last_seen_at).getTime() + TOUCH_RESOLUTION_MS <= now.getTime()) {
    expiresAt = new Date(now.getTime() + SESSION_IDLE_MS).toISOString();
    await touchSession(ctx.db, row.id, now.toISOString(), expiresAt);
    await updateUserRow(ctx.db, user.id, { last_activity: now.toISOString(), ...(ip ? { ip, ip_country: countryOfIp(ip) } : {}) });
  }
  return {
    session: { id: row.id, userId: row.user_id, tokenHash: row.token_hash, viaHandoff: row.via_handoff === 1, expiresAt },
    user,
  };
}

/** Rows kept this long after they stop working (for support questions), then deleted. */
const KEEP_DEAD_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes a user's dead sessions and hand-off tokens (expired or revoked more than a day ago).
 * Done whenever the user starts a session, so the tables stay proportional to live users.
 */
async function pruneUser(ex: Executor, userId: number, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - KEEP_DEAD_MS).toISOString();
  await deleteDeadSessions(ex, userId, cutoff);
  await deleteExpiredHandoffTokens(ex, userId, cutoff);
}

/** The session's CSRF token: derived from the token hash with the server secret, so nothing more is stored. */
export function csrfTokenFor(secret: string, session: SessionRecord): string {
  return keyedHash(secret, 'csrf', session.tokenHash);
}

export function csrfMatches(secret: string, session: SessionRecord, given: string | undefined): boolean {
  return typeof given === 'string' && safeEqual(given, csrfTokenFor(secret, session));
}
