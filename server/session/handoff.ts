import { randomBytes } from 'node:crypto';
import { HANDOFF_QUERY_PARAM, HOSTED_PAGE_PATH, type HandoffResponse } from '../../src/api/contract.js';
import type { AppContext } from '../context.js';
import { linkBase } from '../links/link-base.js';
import type { Executor } from '../store/database.js';
import type { UserRow } from '../store/schema.js';
import { readSettings } from '../store/repos/settings-repo.js';
import { findUserById } from '../store/repos/users-repo.js';
import { sessionErrors } from '../errors.js';
import { flowCompleted } from './view.js';
import { notifyHandoff } from './progress.js';
import { createSession, type SessionRecord } from './sessions.js';
import { deleteUnclaimedHandoffTokens, findHandoffToken, insertHandoffToken, markHandoffUsed, unclaimedHandoffCodes } from './handoff-repo.js';
import { randomToken, sha256Hex } from './tokens.js';
import { deleteShortLink, deleteShortLinks, insertShortLink } from '../links/short-links-repo.js';

/**
 * Cross-device hand-off: a one-time token that starts a second session for the same user on
 * another device. Tokens die when claimed, after {@link HANDOFF_TTL_MS}, or when the flow is
 * completed (issue 18, point 5).
 */

/** Hand-off tokens: single use, 10 minutes. */
export const HANDOFF_TTL_MS = 10 * 60 * 1000;

export async function createHandoff(ctx: AppContext, user: UserRow, session: SessionRecord): Promise<HandoffResponse> {
  const settings = await readSettings(ctx.db);
  if (!settings.handoff_enabled) throw sessionErrors.state('Continuing on another device is not enabled.');
  if (await flowCompleted(ctx.db, user.id)) throw sessionErrors.flowCompleted();
  const token = randomToken();
  const code = randomBytes(9).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + HANDOFF_TTL_MS).toISOString();
  const base = await linkBase(ctx);
  const url = `${base}${HOSTED_PAGE_PATH}?${HANDOFF_QUERY_PARAM}=${token}`;
  await ctx.db.transaction().execute(async (trx) => {
    await insertHandoffToken(trx, {
      token_hash: sha256Hex(token),
      user_id: user.id,
      session_id: session.id,
      short_code: code,
      expires_at: expiresAt,
      used_at: null,
      created_at: now.toISOString(),
    });
    await insertShortLink(trx, ctx.config.secret, { code, userId: user.id, url, expiresAt, createdAt: now.toISOString() });
  });
  return { url, short_url: `${base}/l/${code}`, expires_at: expiresAt };
}

/** Deletes a user's unclaimed hand-off tokens and their short links: they die with completion. */
export async function endUnclaimedHandoffs(ex: Executor, userId: number): Promise<void> {
  await deleteShortLinks(ex, userId, await unclaimedHandoffCodes(ex, userId));
  await deleteUnclaimedHandoffTokens(ex, userId);
}

/** Whether a hand-off token could still be claimed (unused, not expired), without claiming it. */
export async function handoffClaimable(ex: Executor, token: string, now: Date): Promise<boolean> {
  const row = await findHandoffToken(ex, sha256Hex(token));
  return row !== undefined && row.used_at === null && row.expires_at > now.toISOString();
}

/** Claims a hand-off token once: a new session for the same user on the phone. */
export async function claimHandoff(ctx: AppContext, token: string): Promise<{ token: string; session: SessionRecord; user: UserRow }> {
  const now = ctx.clock.now();
  const hash = sha256Hex(token);
  const result = await ctx.db.transaction().execute(async (trx) => {
    const row = await findHandoffToken(trx, hash);
    if (!row || row.used_at !== null || row.expires_at <= now.toISOString()) return null;
    const user = await findUserById(trx, row.user_id);
    if (!user || user.status === 'Banned') return null;
    // Completion deletes unclaimed tokens; this covers a claim racing the completion.
    if (await flowCompleted(trx, user.id)) return null;
    if (!(await markHandoffUsed(trx, hash, now.toISOString()))) return null;
    if (row.short_code) await deleteShortLink(trx, row.short_code);
    const created = await createSession(trx, now, user.id, true);
    return { ...created, user, desktopSession: row.session_id };
  });
  if (!result) throw sessionErrors.handoffInvalid();
  notifyHandoff(result.desktopSession, { phase: 'claimed', at: now.toISOString() });
  return result;
}
