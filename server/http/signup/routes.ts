import { randomInt } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from 'zod';
import { readDashboardSettings } from '../../admin/dashboard-settings.js';
import { confirmSignupRequest, findSignupRequest, insertSignupRequest, replaceSignupCode, takeSignupAttempt } from '../../admin/signup-requests-repo.js';
import type { AppContext } from '../../context.js';
import { EMAIL_METHOD_ID, VerificationStatus } from '../../domain/catalogue.js';
import { errors } from '../../errors.js';
import { pickLocale } from '../../notify/messages.js';
import { sealNotifyCode } from '../../crypto/seal.js';
import { CODE_TTL_MINUTES, NOTIFY_QUEUE, type NotifyCodeJob } from '../../notify/jobs.js';
import { createUser, magicLinkFor } from '../../services/users.js';
import { moveVerification } from '../../services/verifications.js';
import { keyedHash, randomToken, safeEqual, sha256Hex } from '../../crypto/tokens.js';
import { safeHttpUrl } from '../../session/safe-url.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import { findUserById, findUserVerification, updateUserRow } from '../../store/repos/users-repo.js';
import { csrfGuard } from '../admin/auth.js';
import { e164Phone, email } from '../schemas.js';
import { Done } from '../../../src/api/admin/common.js';
import { SignupConfig, SignupConfirmed, SignupStarted } from '../../../src/api/admin/signup.js';

/** Wrong codes allowed per signup before a new code is needed. */
export const SIGNUP_CODE_ATTEMPTS = 5;
/** Registrations per client address per hour. */
export const SIGNUPS_PER_IP_PER_HOUR = 5;
/** Code checks and resends per client address per 15 minutes. */
export const CONFIRMS_PER_IP = 30;

/**
 * Limiters per client address, made by the app's `LimiterFactory` (`server/adapters.ts`): counted
 * in Redis across every process in scale-out, in memory in the single embedded process. Required,
 * so no process can fall back to counts of its own.
 */
export interface SignupOptions {
  /** {@link SIGNUPS_PER_IP_PER_HOUR} registrations per hour. */
  startLimiter: RateLimiterAbstract;
  /** {@link CONFIRMS_PER_IP} code checks and resends per 15 minutes. */
  confirmLimiter: RateLimiterAbstract;
}

const startBody = z.object({
  email,
  first_name: z.string().trim().max(100).optional(),
  last_name: z.string().trim().max(100).optional(),
  phone: e164Phone.optional(),
  locale: z.string().max(35).optional(),
});
const tokenBody = z.object({ token: z.string().min(20).max(100) });
const confirmBody = tokenBody.extend({ code: z.string().regex(/^\d{6}$/) });

function codeHash(secret: string, userId: number, code: string): string {
  return keyedHash(secret, `signup-code:${userId}`, code);
}

async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error: unknown) {
    if (error instanceof RateLimiterRes) throw errors.rateLimited(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    throw error;
  }
}

/**
 * Self-signup (`/signup`): when the dashboard switches it on, a person registers with an e-mail
 * (optionally names and phone), gets a 6-digit code by e-mail, confirms it, and is sent into the
 * verification flow by a fresh magic link. The user is created through `createUser` with the
 * chosen template; the confirmed code also completes the template's Email method (same
 * `moveVerification` path as every status change). Rate-limited per client address.
 */
export function signupRoutes(ctx: AppContext, options: SignupOptions): FastifyPluginAsyncZod {
  const { startLimiter, confirmLimiter } = options;
  return async (app) => {
    const enabledOr404 = async () => {
      const d = await readDashboardSettings(ctx.db);
      if (!d.signup.enabled) throw errors.notFound('Self-signup is not available.');
      return d;
    };

    app.get('/signup/api/config', { schema: { hide: true, response: { 200: SignupConfig } } }, async (_req, reply) => {
      const [d, s] = await Promise.all([readDashboardSettings(ctx.db), readSettings(ctx.db)]);
      void reply.header('cache-control', 'no-store');
      return {
        enabled: d.signup.enabled,
        ask_name: d.signup.ask_name,
        ask_phone: d.signup.ask_phone,
        account_name: s.account_name,
        branding: { ...s.branding, logo_url: safeHttpUrl(s.branding.logo_url) },
      };
    });

    app.post(
      '/signup/api/start',
      { schema: { hide: true, body: startBody, response: { 201: SignupStarted } }, onRequest: csrfGuard(ctx) },
      async (req, reply) => {
        const d = await enabledOr404();
        await consume(startLimiter, req.ip);
        const b = req.body;
        const { user } = await createUser(ctx, {
          email: b.email,
          first_name: d.signup.ask_name ? b.first_name || undefined : undefined,
          last_name: d.signup.ask_name ? b.last_name || undefined : undefined,
          phone: d.signup.ask_phone ? b.phone : undefined,
          template_id: d.signup.template ?? undefined,
          notice: 'self-signup',
        });
        const token = randomToken();
        await issueCode(ctx, user.id, sha256Hex(token), b.locale, true);
        void reply.code(201).header('cache-control', 'no-store');
        return { token, code_ttl_minutes: CODE_TTL_MINUTES };
      },
    );

    app.post('/signup/api/resend', { schema: { hide: true, body: tokenBody, response: { 200: Done } }, onRequest: csrfGuard(ctx) }, async (req) => {
      await enabledOr404();
      await consume(confirmLimiter, req.ip);
      const row = await findSignupRequest(ctx.db, sha256Hex(req.body.token));
      if (!row || row.confirmed_at !== null) throw errors.gone('This signup is not open any more; start again.');
      await issueCode(ctx, row.user_id, row.token_hash, undefined, false);
      return { success: true };
    });

    app.post(
      '/signup/api/confirm',
      { schema: { hide: true, body: confirmBody, response: { 200: SignupConfirmed } }, onRequest: csrfGuard(ctx) },
      async (req, reply) => {
        await enabledOr404();
        await consume(confirmLimiter, req.ip);
        const tokenHash = sha256Hex(req.body.token);
        const outcome = await ctx.db.transaction().execute(async (trx) => {
          const row = await findSignupRequest(trx, tokenHash);
          if (!row || row.confirmed_at !== null) return { kind: 'gone' } as const;
          if (row.expires_at <= ctx.clock.now().toISOString()) return { kind: 'expired' } as const;
          // The try is taken before the code is compared, so guesses sent at once share the limit.
          const attempt = await takeSignupAttempt(trx, tokenHash, SIGNUP_CODE_ATTEMPTS);
          if (!attempt) return { kind: 'expired' } as const;
          if (!safeEqual(codeHash(ctx.config.secret, row.user_id, req.body.code), attempt.codeHash)) {
            return { kind: 'wrong', left: SIGNUP_CODE_ATTEMPTS - attempt.attempts } as const;
          }
          const now = ctx.clock.now().toISOString();
          if (!(await confirmSignupRequest(trx, tokenHash, now))) return { kind: 'gone' } as const;
          await updateUserRow(trx, row.user_id, { email_verified_at: now, updated_at: now });
          const emailStep = await findUserVerification(trx, row.user_id, EMAIL_METHOD_ID);
          // The person just proved the e-mail address: the Email method, if the template has it, is done.
          if (emailStep && emailStep.status !== VerificationStatus.complete) {
            await moveVerification(trx, ctx.clock, row.user_id, EMAIL_METHOD_ID, VerificationStatus.complete, { attributes: { confirmed_by: 'signup_code' } });
          }
          return { kind: 'ok', userId: row.user_id } as const;
        });
        if (outcome.kind === 'gone') throw errors.gone('This signup is not open any more; start again.');
        if (outcome.kind === 'expired') throw errors.gone('This code has expired or was tried too often; ask for a new one.');
        if (outcome.kind === 'wrong') throw errors.validation({ code: [`The code is not right; ${outcome.left} tries left.`] }, 'The code is not right.');
        ctx.signals.emit('outbox');
        const user = (await findUserById(ctx.db, outcome.userId))!;
        const { url } = await magicLinkFor(ctx, user);
        void reply.header('cache-control', 'no-store');
        return { magic_link: url };
      },
    );
  };
}

/** A fresh code for a signup: stored hashed, sent sealed through the durable notify queue. */
async function issueCode(ctx: AppContext, userId: number, tokenHash: string, locale: string | undefined, fresh: boolean): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000).toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const hash = codeHash(ctx.config.secret, userId, code);
    if (fresh) await insertSignupRequest(trx, { tokenHash, userId, codeHash: hash, expiresAt, createdAt: now.toISOString() });
    else await replaceSignupCode(trx, tokenHash, hash, expiresAt);
    const job: NotifyCodeJob = {
      kind: 'code',
      userId,
      channel: 'email',
      sealed: sealNotifyCode(ctx.config.secret, code),
      expiresAt,
      locale: pickLocale(locale),
    };
    await ctx.queue.enqueue(NOTIFY_QUEUE, job, { maxAttempts: 10 }, trx);
  });
}
