import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { ApiError } from '../../errors.js';
import { newNonce } from '../../http/hosted/security-headers.js';
import { pickLocale } from '../../notify/messages.js';
import { randomToken, safeEqual, sha256Hex } from '../../session/tokens.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import { findUserById } from '../../store/repos/users-repo.js';
import type { MethodRoutes } from '../method.js';
import { exchangeCode, type ProvenIdentity } from './client.js';
import { findLoginByBegin, findLoginByState, finishLogin, markBegun, setOutcome, type OidcLoginRow } from './logins-repo.js';
import { signInPage, type SignInPage } from './pages.js';
import { findProvider } from './providers-repo.js';
import { failureOfProviderError, SIGN_IN_TTL_MS, type SignInFailure } from './rules.js';
import { openSignIn, redirectUriOf } from './sign-in.js';
import { isSignInStep, SIGN_IN_STEPS } from './steps.js';

/** The cookie binding one sign-in to the browser that opened it (one per sign-in: two steps may be signing in at once). */
function bindingCookie(loginId: number): string {
  return `verity_oidc_${loginId}`;
}

const STATUS: Record<SignInPage, number> = { done: 200, cancelled: 200, provider_error: 200, invalid_response: 200, expired: 410, used: 410, invalid: 400 };

const Query = z.object({
  state: z.optional(z.string().check(z.maxLength(512))),
  code: z.optional(z.string().check(z.maxLength(4096))),
  error: z.optional(z.string().check(z.maxLength(256))),
});

/**
 * `GET /oidc/begin` and `GET /oidc/callback`: the two pages of a sign-in that the browser visits
 * outside the session API (the provider's redirect carries no session token). Begin binds the
 * sign-in to the browser with an HttpOnly cookie and sends it to the provider; the callback
 * accepts only a pending sign-in's state from that same browser, claims the sign-in once (a
 * replayed or doubled callback finds it claimed), exchanges the code and lets the step decide.
 */
export const oidcCallbackRoutes: MethodRoutes = (kit) => async (app) => {
  const { ctx } = kit;
  await app.register(cookie);
  const secure = ctx.config.baseUrl.startsWith('https:');

  const page = async (req: FastifyRequest, reply: FastifyReply, which: SignInPage) => {
    const settings = await readSettings(ctx.db);
    const nonce = newNonce();
    kit.hostedHeaders(reply, nonce, settings);
    const locale = pickLocale(req.headers['accept-language'], settings.default_locale);
    return reply
      .code(STATUS[which])
      .type('text/html; charset=utf-8')
      .send(signInPage(settings, nonce, which, locale));
  };

  app.get('/oidc/begin', { schema: { hide: true, querystring: z.object({ t: z.optional(z.string().check(z.maxLength(200))) }) } }, async (req, reply) => {
    const now = ctx.clock.now();
    const login = req.query.t ? await findLoginByBegin(ctx.db, sha256Hex(req.query.t)) : undefined;
    if (!login) return page(req, reply, 'invalid');
    if (login.expires_at <= now.toISOString()) return page(req, reply, 'expired');
    const binding = randomToken();
    if (!(await markBegun(ctx.db, login.id, sha256Hex(binding), now))) return page(req, reply, 'used');
    const { url } = openSignIn(ctx.config.secret, login.secrets_sealed);
    void reply.setCookie(bindingCookie(login.id), binding, { httpOnly: true, sameSite: 'lax', secure, path: '/oidc', maxAge: SIGN_IN_TTL_MS / 1000 });
    void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return reply.redirect(url, 302);
  });

  app.get('/oidc/callback', { schema: { hide: true, querystring: Query } }, async (req, reply) => {
    const now = ctx.clock.now();
    const { state, error } = req.query;
    const login = state ? await findLoginByState(ctx.db, sha256Hex(state)) : undefined;
    if (!login || !state) return page(req, reply, 'invalid');
    if (login.finished_at !== null) return page(req, reply, 'used');
    // Only the browser that opened the sign-in may finish it; another one leaves it pending.
    const binding = req.cookies[bindingCookie(login.id)];
    if (!login.binding_hash || !binding || !safeEqual(sha256Hex(binding), login.binding_hash)) return page(req, reply, 'invalid');
    void reply.clearCookie(bindingCookie(login.id), { path: '/oidc' });
    if (login.expires_at <= now.toISOString()) {
      await finishLogin(ctx.db, login.id, 'expired', now);
      kit.changed(login.user_id);
      return page(req, reply, 'expired');
    }
    // Claimed before anything else: of two callbacks at once, one goes on.
    if (!(await finishLogin(ctx.db, login.id, 'claimed', now))) return page(req, reply, 'used');
    let outcome: 'done' | SignInFailure;
    try {
      outcome = error !== undefined ? failureOfProviderError(error) : await finish(login, state, rawQuery(req.url));
    } catch (err: unknown) {
      // Never leave a sign-in claimed for ever: the step would wait on it.
      await setOutcome(ctx.db, login.id, 'invalid_response');
      kit.changed(login.user_id);
      throw err;
    }
    await setOutcome(ctx.db, login.id, outcome);
    kit.changed(login.user_id);
    return page(req, reply, outcome);
  });

  /** Exchanges the code and lets the step decide; any failed check is `invalid_response`. */
  async function finish(login: OidcLoginRow, state: string, query: string): Promise<'done' | SignInFailure> {
    const provider = await findProvider(ctx.db, ctx.config.secret, login.provider_id);
    const user = await findUserById(ctx.db, login.user_id);
    if (!provider || !user || user.status === 'Banned' || !isSignInStep(login.method_key)) return 'invalid_response';
    let identity: ProvenIdentity;
    try {
      const secrets = openSignIn(ctx.config.secret, login.secrets_sealed);
      // The URL the provider was told to come back to (behind a proxy the request's own may differ).
      identity = await exchangeCode(provider, new URL(`${redirectUriOf(ctx.config.baseUrl)}?${query}`), state, secrets);
    } catch (err: unknown) {
      // The library's message names the failed check (nonce, issuer, signature…); no claim values.
      ctx.log.warn({ provider: provider.id, login: login.id, err: err instanceof Error ? err.message : String(err) }, 'oidc sign-in refused');
      return 'invalid_response';
    }
    try {
      await SIGN_IN_STEPS[login.method_key](kit, user, identity, provider);
    } catch (err: unknown) {
      // The step was finished or reset meanwhile (another tab, an operator): nothing to record.
      if (err instanceof ApiError) return 'invalid_response';
      throw err;
    }
    return 'done';
  }
};

function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}
