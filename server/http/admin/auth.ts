import { createHash, randomBytes } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findAdminByEmail } from '../../admin/admins-repo.js';
import { secondFactorPasses } from '../../admin/totp.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { createAdminSession, endAdminSession, findAdminSession, touchAdminSession } from '../../admin/sessions-repo.js';
import type { AppContext } from '../../context.js';
import { type ApiError, errors } from '../../errors.js';
import { DEVICE_COOKIE, DEVICE_COOKIE_PATH, DEVICE_MAX_AGE_SECONDS, deviceAdminId, newDeviceToken } from './device-cookie.js';
import type { LoginThrottle } from './login-throttle.js';
import { Done } from '../../../src/api/admin/common.js';
import { SessionAnswer, SignedIn } from '../../../src/api/admin/session.js';

/** The admin session cookie; scoped to /admin so it never travels with API or end-user calls. */
export const ADMIN_COOKIE = 'verity_admin';
/** A session ends after this long without a request… */
export const ADMIN_IDLE_MS = 30 * 60_000;
/** …and at the latest this long after sign-in. */
export const ADMIN_MAX_AGE_MS = 12 * 3_600_000;
/** last_seen_at is written at most this often, so reads do not all turn into writes. */
const TOUCH_RESOLUTION_MS = 30_000;
export interface AdminIdentity {
  id: number;
  email: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in admin (admin routes behind `requireAdmin` only). */
    admin?: AdminIdentity;
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** 403 for a state-changing request that does not come from our own pages. */
function crossSite(): ApiError {
  return errors.forbidden('Cross-site request refused.');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A check that refuses a request by throwing. Run as an `onRequest` hook, before the body is parsed
 * and validated: a refused caller learns nothing of the route's fields (issue 18: an anonymous
 * POST with a bad body got a 422 listing them).
 */
export type RequestGuard = (req: FastifyRequest) => Promise<void>;

/**
 * CSRF defence for cookie-authenticated admin routes: a state-changing request must come from our
 * own origin, as the browser tells us through `Sec-Fetch-Site` or `Origin`. A request carrying
 * neither (not a browser, so no ambient cookie risk is at stake but no proof either) is refused.
 */
export function csrfGuard(ctx: AppContext): RequestGuard {
  const allowed = new URL(ctx.config.baseUrl).origin;
  return async (req: FastifyRequest) => {
    if (SAFE_METHODS.has(req.method)) return;
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') throw crossSite();
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (origin !== allowed) throw crossSite();
      return;
    }
    if (site !== 'same-origin') throw crossSite();
  };
}

/** Looks up the session of a request's cookie; undefined when absent, unknown or expired. */
export async function adminFromRequest(ctx: AppContext, req: FastifyRequest): Promise<AdminIdentity | undefined> {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const token = fastifyCookie.parse(header)[ADMIN_COOKIE];
  if (!token || token.length > 200) return undefined;
  const tokenHash = hashToken(token);
  const row = await findAdminSession(ctx.db, tokenHash);
  if (!row) return undefined;
  const now = ctx.clock.now();
  const idleEnd = Date.parse(row.last_seen_at) + ADMIN_IDLE_MS;
  if (now.getTime() >= idleEnd || now.toISOString() >= row.expires_at) {
    await endAdminSession(ctx.db, tokenHash);
    return undefined;
  }
  if (now.getTime() - Date.parse(row.last_seen_at) >= TOUCH_RESOLUTION_MS) {
    await touchAdminSession(ctx.db, tokenHash, now);
  }
  return { id: row.id, email: row.email };
}

/**
 * The `onRequest` guard of every admin route: a valid admin session cookie, or 401. API keys and
 * end-user sessions are not admin credentials and are never looked at here.
 */
export function requireAdmin(ctx: AppContext): RequestGuard {
  return async (req: FastifyRequest) => {
    const admin = await adminFromRequest(ctx, req);
    if (!admin) throw errors.unauthenticated();
    req.admin = admin;
  };
}

function cookieOptions(ctx: AppContext) {
  return {
    path: '/admin',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: ctx.config.baseUrl.startsWith('https:'),
  };
}

function setCookie(reply: FastifyReply, value: string, options: ReturnType<typeof cookieOptions> & { maxAge: number }): void {
  reply.header('set-cookie', fastifyCookie.serialize(ADMIN_COOKIE, value, options));
  reply.header('cache-control', 'no-store');
}

const loginBody = z.object({ email: z.string().min(1).max(320), password: z.string().min(1).max(1000), totp: z.string().max(12).optional() });

export interface AdminAuthOptions {
  /**
   * Sign-in throttling, made with the app's `LimiterFactory`: shared through Redis by every process
   * in scale-out. Required, so no process falls back to counts of its own.
   */
  loginThrottle: LoginThrottle;
}

/**
 * `POST /admin/api/session` (sign in), `GET` (who am I), `DELETE` (sign out). Sessions are random
 * 256-bit tokens stored hashed, in an HttpOnly, SameSite=Strict cookie (Secure on https).
 */
export function adminSessionRoutes(ctx: AppContext, options: AdminAuthOptions): FastifyPluginAsyncZod {
  const throttle = options.loginThrottle;
  // Compared against when the e-mail is unknown, so both paths cost one scrypt.
  let decoy: Promise<string> | undefined;
  return async (app) => {
    app.post('/admin/api/session', { schema: { hide: true, body: loginBody, response: { 200: SignedIn } }, onRequest: csrfGuard(ctx) }, async (req, reply) => {
      const admin = await findAdminByEmail(ctx.db, req.body.email);
      const knownDevice = admin !== undefined && deviceAdminId(ctx.config.secret, req.headers.cookie) === admin.id;
      const admission = await throttle.admit(req.body.email, req.ip, knownDevice);
      if (!admission.admitted) throw errors.rateLimited(admission.retryAfterSeconds);
      const { ticket } = admission;
      const ok = await verifyPassword(req.body.password, admin?.password_hash ?? (await (decoy ??= hashPassword('not the password of anyone'))));
      if (!admin || !ok) {
        await throttle.outcome(ticket, 'failed');
        throw errors.unauthenticated('The e-mail or password is wrong.');
      }
      // Optional TOTP second factor (server/admin/totp.ts); `errors.totp` tells the page to ask for it.
      if (!(await secondFactorPasses(ctx, admin.id, req.body.totp))) {
        // A wrong code is a guess like a wrong password; no code yet is only the page's first step.
        await throttle.outcome(ticket, req.body.totp === undefined ? 'undecided' : 'failed');
        throw errors.unauthenticated('Enter the code from your authenticator app.', { totp: ['required'] });
      }
      await throttle.outcome(ticket, 'succeeded');
      const token = randomBytes(32).toString('base64url');
      const now = ctx.clock.now();
      const expiresAt = new Date(now.getTime() + ADMIN_MAX_AGE_MS).toISOString();
      await createAdminSession(ctx.db, hashToken(token), admin.id, now, expiresAt);
      setCookie(reply, token, { ...cookieOptions(ctx), maxAge: ADMIN_MAX_AGE_MS / 1000 });
      // This browser is now known to the account: later sign-ins from it skip the account-wide wait.
      if (!knownDevice) {
        const device = newDeviceToken(ctx.config.secret, admin.id);
        void reply.header(
          'set-cookie',
          fastifyCookie.serialize(DEVICE_COOKIE, device, { ...cookieOptions(ctx), path: DEVICE_COOKIE_PATH, maxAge: DEVICE_MAX_AGE_SECONDS }),
        );
      }
      return { admin: { id: admin.id, email: admin.email }, expires_at: expiresAt, idle_timeout_seconds: ADMIN_IDLE_MS / 1000 };
    });

    app.get('/admin/api/session', { schema: { hide: true, response: { 200: SessionAnswer } }, onRequest: requireAdmin(ctx) }, async (req, reply) => {
      void reply.header('cache-control', 'no-store');
      return { admin: req.admin! };
    });

    app.delete('/admin/api/session', { schema: { hide: true, response: { 200: Done } }, onRequest: csrfGuard(ctx) }, async (req, reply) => {
      const token = req.headers.cookie ? fastifyCookie.parse(req.headers.cookie)[ADMIN_COOKIE] : undefined;
      if (token) await endAdminSession(ctx.db, hashToken(token));
      setCookie(reply, '', { ...cookieOptions(ctx), maxAge: 0 });
      return { success: true };
    });
  };
}
