import type { OidcMethodKey, SignInResponse, SignInStatus } from '../../../src/api/contract.js';
import { SEAL_LABELS, sealerFor } from '../../crypto/seal.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { sessionErrors } from '../../errors.js';
import { randomToken, sha256Hex } from '../../session/tokens.js';
import { lockVerification, markStarted } from '../../session/verification-repo.js';
import type { Executor } from '../../store/database.js';
import type { UserRow, UserVerificationRow } from '../../store/schema.js';
import { reopenVerification } from '../defaults.js';
import type { ServerMethod, SessionKit } from '../method.js';
import { authorizationRequest, type SignInSecrets } from './client.js';
import { countLoginsSince, deleteStepLogins, endPendingLogins, insertLogin, latestLogin, pruneLogins } from './logins-repo.js';
import type { OidcProvider } from './providers-repo.js';
import { KEEP_FINISHED_MS, SIGN_IN_TTL_MS, SIGN_IN_WINDOW_MS, SIGN_INS_PER_HOUR } from './rules.js';

/** Where providers send the browser back: registered with every provider as the redirect URI. */
export function redirectUriOf(baseUrl: string): string {
  return `${baseUrl}/oidc/callback`;
}

/** What is sealed in a sign-in's row: the PKCE verifier, the nonce, and the provider URL `/oidc/begin` sends the browser to. */
export interface SealedSignIn extends SignInSecrets {
  url: string;
}

export function sealSignIn(serverSecret: string, value: SealedSignIn): string {
  return sealerFor(serverSecret, SEAL_LABELS.oidcLogin).seal(JSON.stringify(value));
}

export function openSignIn(serverSecret: string, sealed: string): SealedSignIn {
  return JSON.parse(sealerFor(serverSecret, SEAL_LABELS.oidcLogin).open(sealed)) as SealedSignIn;
}

/**
 * Starts a sign-in with `provider` for a step: asks the provider's discovery for its endpoints,
 * makes the state, nonce and PKCE verifier, and answers a one-time `/oidc/begin` URL. Any sign-in
 * of the step still pending ends (only the newest can complete).
 */
export async function startSignIn(
  kit: SessionKit,
  user: UserRow,
  v: UserVerificationRow,
  key: OidcMethodKey,
  provider: OidcProvider,
  locale: string | null,
): Promise<SignInResponse> {
  const { ctx } = kit;
  const now = ctx.clock.now();
  const refuseOverLimit = async (ex: Executor) => {
    const recent = await countLoginsSince(ex, user.id, key, new Date(now.getTime() - SIGN_IN_WINDOW_MS));
    if (recent.count >= SIGN_INS_PER_HOUR && recent.oldest) {
      const wait = new Date(recent.oldest).getTime() + SIGN_IN_WINDOW_MS - now.getTime();
      throw sessionErrors.resendTooSoon(Math.max(1, Math.ceil(wait / 1000)));
    }
  };
  // Before asking the provider (no discovery for a refused start), and again holding the step.
  await refuseOverLimit(ctx.db);
  let request: Awaited<ReturnType<typeof authorizationRequest>>;
  try {
    request = await authorizationRequest(provider, redirectUriOf(ctx.config.baseUrl), locale);
  } catch (error: unknown) {
    ctx.log.warn({ provider: provider.id, err: error instanceof Error ? error.message : String(error) }, 'oidc discovery failed');
    throw sessionErrors.signInUnavailable();
  }
  const begin = randomToken();
  const expiresAt = new Date(now.getTime() + SIGN_IN_TTL_MS).toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    // Held to the end: of two sign-ins started at once, the later ends the earlier (only the newest
    // can complete), and a step done meanwhile starts none.
    await lockVerification(trx, user.id, v.method_id);
    await kit.requireOpen(user, key, trx);
    await refuseOverLimit(trx);
    await pruneLogins(trx, user.id, new Date(now.getTime() - KEEP_FINISHED_MS));
    await endPendingLogins(trx, user.id, key, 'cancelled', now);
    await insertLogin(trx, {
      user_id: user.id,
      method_key: key,
      provider_id: provider.id,
      state_hash: sha256Hex(request.state),
      begin_hash: sha256Hex(begin),
      secrets_sealed: sealSignIn(ctx.config.secret, { ...request.secrets, url: request.url.toString() }),
      created_at: now.toISOString(),
      expires_at: expiresAt,
    });
    if (v.started_at === null) await markStarted(trx, user.id, v.method_id, now);
  });
  kit.changed(user.id);
  return { url: `${ctx.config.baseUrl}/oidc/begin?t=${encodeURIComponent(begin)}`, expires_at: expiresAt };
}

/** The user pressed Cancel while at the provider: the pending sign-in ends; its callback will change nothing. */
export async function cancelSignIn(kit: SessionKit, user: UserRow, key: OidcMethodKey): Promise<void> {
  await endPendingLogins(kit.ctx.db, user.id, key, 'cancelled', kit.ctx.clock.now());
  kit.changed(user.id);
}

/**
 * When the step was last put back to do (a reset or retry by the API, the dashboard or the user):
 * what happened before does not count any more. Null while the step is not to do.
 */
export function reopenedAt(v: UserVerificationRow): string | null {
  return v.status === VerificationStatus.assigned || v.status === VerificationStatus.reset ? v.updated_at : null;
}

/** The step's last sign-in (since it was last reopened) as the step shows it, and how many more it may start this hour. */
export async function signInNeeds(
  ex: Executor,
  userId: number,
  v: UserVerificationRow,
  key: OidcMethodKey,
  now: Date,
): Promise<{ sign_in: SignInStatus; sign_ins_left: number }> {
  const last = await latestLogin(ex, userId, key, reopenedAt(v));
  const recent = await countLoginsSince(ex, userId, key, new Date(now.getTime() - SIGN_IN_WINDOW_MS));
  const left = Math.max(0, SIGN_INS_PER_HOUR - recent.count);
  if (!last) return { sign_in: 'none', sign_ins_left: left };
  if (last.finished_at === null) return { sign_in: last.expires_at <= now.toISOString() ? 'expired' : 'pending', sign_ins_left: left };
  const outcome = last.outcome;
  const known: SignInStatus[] = ['done', 'cancelled', 'provider_error', 'invalid_response', 'expired'];
  // `claimed`: a callback is exchanging the code right now.
  return { sign_in: known.includes(outcome as SignInStatus) ? (outcome as SignInStatus) : 'pending', sign_ins_left: left };
}

/**
 * The retry of a step proven by a sign-in: `forget` drops the step's own state (if any), then its
 * sign-ins go, and the step is back to `assigned`.
 */
export function reopenSignInStep(key: OidcMethodKey, forget?: (trx: Executor, userId: number) => Promise<void>): ServerMethod['reopen'] {
  return async (trx, ctx, userId, verification) => {
    await forget?.(trx, userId);
    await deleteStepLogins(trx, userId, key);
    await reopenVerification(trx, ctx, userId, verification);
  };
}
