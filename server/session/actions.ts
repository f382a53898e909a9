import type { MethodKey } from '../../src/api/contract.js';
import type { Executor } from '../store/database.js';
import type { AppContext } from '../context.js';
import { hostedSecurityHeaders } from '../http/hosted/security-headers.js';
import { VerificationStatus } from '../domain/catalogue.js';
import { checkMagicLink, magicLinkQuery, refusalOf, type LinkRefusal } from '../links/magic-link.js';
import type { MethodResult, SessionKit } from '../methods/method.js';
import { browserPermissions, methodForKey } from '../methods/registry.js';
import { setUserStatus } from '../services/verifications.js';
import type { UserRow } from '../store/schema.js';
import { findUserById, findUserByLinkKey, updateUserRow } from '../store/repos/users-repo.js';
import { readSettings } from '../store/repos/settings-repo.js';
import type { SessionLimits } from './limits.js';
import { sessionErrors } from '../errors.js';
import { requireConsent } from './consent.js';
import { countryOfIp } from './ip-country.js';
import { notifyProgress } from './progress.js';
import { createSession, type SessionRecord } from './sessions.js';
import { isOpen } from './status.js';
import { markStarted } from './verification-repo.js';
import { flowCompleted, methodResult, verificationFor } from './view.js';

/** Tells the outbox and the user's progress streams that something changed. */
function done(ctx: AppContext, userId: number): void {
  ctx.signals.emit('outbox');
  notifyProgress(userId);
}

async function requireOpen(ctx: AppContext, user: UserRow, key: MethodKey, ex: Executor = ctx.db) {
  const v = await verificationFor(ex, user.id, key);
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
    requireOpen: (user, key, ex) => requireOpen(ctx, user, key, ex),
    result: (user, key) => methodResult(ctx, user, key),
    changed: (userId) => done(ctx, userId),
    hostedHeaders: (reply, nonce, settings) => hostedSecurityHeaders(reply, nonce, settings, browserPermissions()),
    requireConsent: async (userId) => requireConsent(ctx.db, await readSettings(ctx.db), userId),
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
  // A completed flow is over: its link must not start a session again (issue 18, point 5).
  if (await flowCompleted(ctx.db, use.user.id)) throw sessionErrors.flowCompleted();
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
