import { randomBytes } from 'node:crypto';
import { HANDOFF_QUERY_PARAM, HOSTED_PAGE_PATH, type CompleteResponse, type HandoffResponse, type MethodKey } from '../../src/api/contract.js';
import type { AppContext } from '../context.js';
import { VerificationStatus } from '../domain/catalogue.js';
import { checkMagicLink, magicLinkQuery, refusalOf, type LinkRefusal } from '../links/magic-link.js';
import type { MethodResult, SessionKit } from '../methods/method.js';
import { methodForKey } from '../methods/registry.js';
import { linkBase } from '../services/users.js';
import { setUserStatus } from '../services/verifications.js';
import type { UserRow } from '../store/schema.js';
import { readSettings } from '../store/settings-repo.js';
import { findUserById, findUserByLinkKey, updateUserRow } from '../store/users-repo.js';
import type { SessionLimits } from './limits.js';
import { sessionErrors } from './errors.js';
import { countryOfIp } from './ip-country.js';
import { notifyHandoff, notifyProgress } from './progress.js';
import { createSession, type SessionRecord } from './sessions.js';
import { flowCompletion } from './state.js';
import { isOpen } from './status.js';
import { sdb } from './tables.js';
import { randomToken, sha256Hex } from './tokens.js';
import { markStarted } from './verification-repo.js';
import { flowState, methodResult, safeHttpUrl, verificationFor } from './view.js';

/** Hand-off tokens: single use, 10 minutes. */
export const HANDOFF_TTL_MS = 10 * 60 * 1000;

/** Tells the outbox and the user's progress streams that something changed. */
function done(ctx: AppContext, userId: number): void {
  ctx.signals.emit('outbox');
  notifyProgress(userId);
}

async function requireOpen(ctx: AppContext, user: UserRow, key: MethodKey) {
  const v = await verificationFor(ctx.db, user.id, key);
  if (!v) throw sessionErrors.notAssigned();
  if (!isOpen(v.status))
    throw sessionErrors.state(v.status === VerificationStatus.rejected ? 'This step was rejected; retry it first.' : 'This step is already done.');
  return v;
}

/** What the session core lends the methods' routes and use cases (see `SessionKit`). */
export function sessionKit(ctx: AppContext, limits: SessionLimits): SessionKit {
  return {
    ctx,
    limits,
    requireOpen: (user, key) => requireOpen(ctx, user, key),
    result: (user, key) => methodResult(ctx, user, key),
    changed: (userId) => done(ctx, userId),
  };
}

// ---------------------------------------------------------------------------------------------
// Starting a session
// ---------------------------------------------------------------------------------------------

export type LinkUse = { ok: true; user: UserRow } | { ok: false; refusal: LinkRefusal };

/**
 * Checks a magic link's query (signature in constant time, then expiry, then the user): the same
 * check for `GET /security-verify` and `POST /session/start`. A deleted or banned user's link is
 * "revoked"; which of the two is never said.
 */
export async function checkLink(ctx: AppContext, query: Record<string, unknown>): Promise<LinkUse> {
  const check = checkMagicLink(ctx.config.secret, query, ctx.clock.now());
  if (!check.ok) return { ok: false, refusal: refusalOf(check) };
  const user = await findUserByLinkKey(ctx.db, check.params.key);
  if (!user || user.status === 'Banned') return { ok: false, refusal: 'revoked' };
  return { ok: true, user };
}

/** `POST /session/start`: a new session for the link's user, who becomes Active if still Unconfirmed. */
export async function startFromLink(ctx: AppContext, link: string, ip: string | null): Promise<{ token: string; session: SessionRecord; user: UserRow }> {
  const query = magicLinkQuery(link);
  if (!query) throw sessionErrors.linkInvalid();
  const use = await checkLink(ctx, query);
  if (!use.ok) {
    throw use.refusal === 'expired' ? sessionErrors.linkExpired() : use.refusal === 'revoked' ? sessionErrors.linkRevoked() : sessionErrors.linkInvalid();
  }
  const now = ctx.clock.now();
  const result = await ctx.db.transaction().execute(async (trx) => {
    const created = await createSession(trx, now, use.user.id, false);
    await updateUserRow(trx, use.user.id, {
      last_login: now.toISOString(),
      last_activity: now.toISOString(),
      ...(ip ? { ip, ip_country: countryOfIp(ip) } : {}),
    });
    const current = await findUserById(trx, use.user.id);
    // architecture.md: Active once the user opens a valid link (the POST from the landing page).
    if (current?.status === 'Unconfirmed') await setUserStatus(trx, ctx.clock, use.user.id, 'Unconfirmed', 'Active');
    return { ...created, user: (await findUserById(trx, use.user.id))! };
  });
  done(ctx, use.user.id);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Start and retry of a method
// ---------------------------------------------------------------------------------------------

/** Records the method's start time (webhook `start_time`); idempotent, not a status change. */
export async function startMethod(ctx: AppContext, user: UserRow, key: MethodKey): Promise<MethodResult> {
  const v = await verificationFor(ctx.db, user.id, key);
  if (!v) throw sessionErrors.notAssigned();
  if (isOpen(v.status) && v.started_at === null) await markStarted(ctx.db, user.id, v.method_id, ctx.clock.now());
  return methodResult(ctx, user, key);
}

/** Puts a rejected method back to `assigned` when the user may try again. */
export async function retryMethod(ctx: AppContext, user: UserRow, key: MethodKey): Promise<MethodResult> {
  const current = await methodResult(ctx, user, key).catch(() => null);
  if (!current) throw sessionErrors.notAssigned();
  if (!current.method.can_retry) throw sessionErrors.state('This step cannot be retried.');
  if (current.method.status === 'reset') return current;
  const v = (await verificationFor(ctx.db, user.id, key))!;
  const method = methodForKey(key);
  if (!method) throw sessionErrors.notAssigned();
  await ctx.db.transaction().execute((trx) => method.reopen(trx, ctx, user.id, v));
  done(ctx, user.id);
  return methodResult(ctx, user, key);
}

// ---------------------------------------------------------------------------------------------
// Cross-device hand-off
// ---------------------------------------------------------------------------------------------

export async function createHandoff(ctx: AppContext, user: UserRow, session: SessionRecord): Promise<HandoffResponse> {
  const settings = await readSettings(ctx.db);
  if (!settings.handoff_enabled) throw sessionErrors.state('Continuing on another device is not enabled.');
  const token = randomToken();
  const code = randomBytes(9).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + HANDOFF_TTL_MS).toISOString();
  const base = await linkBase(ctx);
  const url = `${base}${HOSTED_PAGE_PATH}?${HANDOFF_QUERY_PARAM}=${token}`;
  await ctx.db.transaction().execute(async (trx) => {
    await sdb(trx)
      .insertInto('handoff_tokens')
      .values({
        token_hash: sha256Hex(token),
        user_id: user.id,
        session_id: session.id,
        short_code: code,
        expires_at: expiresAt,
        used_at: null,
        created_at: now.toISOString(),
      })
      .execute();
    await trx.insertInto('short_links').values({ code, user_id: user.id, full_url: url, expires_at: expiresAt, created_at: now.toISOString() }).execute();
  });
  return { url, short_url: `${base}/l/${code}`, expires_at: expiresAt };
}

/** Claims a hand-off token once: a new session for the same user on the phone. */
export async function claimHandoff(ctx: AppContext, token: string): Promise<{ token: string; session: SessionRecord; user: UserRow }> {
  const now = ctx.clock.now();
  const hash = sha256Hex(token);
  const result = await ctx.db.transaction().execute(async (trx) => {
    const row = await sdb(trx).selectFrom('handoff_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    if (!row || row.used_at !== null || row.expires_at <= now.toISOString()) return null;
    const user = await findUserById(trx, row.user_id);
    if (!user || user.status === 'Banned') return null;
    const claimed = await sdb(trx)
      .updateTable('handoff_tokens')
      .set({ used_at: now.toISOString() })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return null;
    if (row.short_code) await trx.deleteFrom('short_links').where('code', '=', row.short_code).execute();
    const created = await createSession(trx, now, user.id, true);
    return { ...created, user, desktopSession: row.session_id };
  });
  if (!result) throw sessionErrors.handoffInvalid();
  notifyHandoff(result.desktopSession, { phase: 'claimed', at: now.toISOString() });
  return result;
}

// ---------------------------------------------------------------------------------------------
// Completion
// ---------------------------------------------------------------------------------------------

/**
 * The completion redirect: the per-user `completion_url`, else `redirect_url` (both set through the
 * API by the customer), else the account default; http(s) only; `reference_id` and `status` set
 * by us (replacing any of the same name). Null when none is configured.
 */
export function completionRedirect(user: UserRow, accountDefault: string | null): string | null {
  for (const candidate of [user.completion_url, user.redirect_url, accountDefault]) {
    const safe = safeHttpUrl(candidate);
    if (!safe) continue;
    const url = new URL(safe);
    url.searchParams.delete('reference_id');
    url.searchParams.delete('status');
    if (user.reference_id !== null) url.searchParams.set('reference_id', user.reference_id);
    url.searchParams.set('status', 'completed');
    return url.toString();
  }
  return null;
}

export async function completeFlow(ctx: AppContext, user: UserRow, session: SessionRecord): Promise<CompleteResponse> {
  const state = await flowState(ctx.db, user.id);
  if (state === 'in_progress') throw sessionErrors.incomplete();
  const now = ctx.clock.now();
  if (state === 'ready_to_complete') await flowCompletion.write(ctx.db, user.id, { completed_at: now.toISOString() }, now);
  const settings = await readSettings(ctx.db);
  if (session.viaHandoff) {
    const desktops = await sdb(ctx.db)
      .selectFrom('handoff_tokens')
      .select('session_id')
      .where('user_id', '=', user.id)
      .where('used_at', 'is not', null)
      .execute();
    for (const d of desktops) notifyHandoff(d.session_id, { phase: 'finished', at: now.toISOString() });
  }
  notifyProgress(user.id);
  return { status: 'completed', reference_id: user.reference_id, redirect_url: completionRedirect(user, settings.default_completion_url) };
}
