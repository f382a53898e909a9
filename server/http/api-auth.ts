import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { errors, type ApiError } from '../errors.js';
import type { ApiKeyRow } from '../store/schema.js';
import { ApiKeyCache } from '../store/api-key-cache.js';
import { DEFAULT_RATE_PER_MINUTE, DEFAULT_RATE_PER_SECOND, findActiveKeyByHash, hashApiKey, touchApiKey } from '../store/repos/api-keys-repo.js';
import { isPostgres } from '../store/migrations/helpers.js';
import type { ApiRateLimiter } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key that authenticated this request (customer API routes only). */
    apiKey?: ApiKeyRow;
  }
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Checks one customer API request: User-Agent, key, rate limit. Throws the refusal. */
export type ApiAuthenticator = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Order per spec: a missing User-Agent is refused before anything else (403), then the key (401),
 * then the rate limit (429). The rate-limit headers go on every answer, errors included (spec 8).
 *
 * A request with a valid key is counted against that key only. One without (missing User-Agent,
 * missing, malformed, wrong or revoked key) has no key to count against, so it is counted against
 * its client address with the default budget ({@link refuseWithoutKey}). A request without a
 * User-Agent counts against its address even when it carries a valid key: its key is not looked at.
 *
 * The caller decides which requests this sees: every route of the customer API's scope
 * (`customerApi` in `customer-api.ts`), whatever spelling of its path reached it, and the customer
 * API's unmatched URLs. It never looks at the URL itself.
 */
export function apiAuthenticator(app: FastifyInstance, ctx: AppContext, limiter: ApiRateLimiter): ApiAuthenticator {
  // last_used_at is written at most once a minute per key, so reads do not turn into writes.
  const lastTouched = new Map<number, number>();
  // Active keys are cached; PostgreSQL without Redis has no way to hear of another process's
  // revocation, so there every request reads its key.
  const keys = new ApiKeyCache(ctx.db, (keyHash) => findActiveKeyByHash(ctx.db, keyHash), {
    enabled: !isPostgres(ctx.db) || ctx.config.redisUrl !== undefined,
  });
  app.addHook('onClose', async () => keys.close());

  return async (req, reply) => {
    if (!req.headers['user-agent']?.trim()) return refuseWithoutKey(limiter, req, reply, errors.missingUserAgent());
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return refuseWithoutKey(limiter, req, reply, errors.unauthenticated());
    const key = await keys.find(hashApiKey(match[1]!));
    if (!key) return refuseWithoutKey(limiter, req, reply, errors.unauthenticated());
    req.apiKey = key;

    const decision = await limiter.consume(String(key.id), key.rate_per_second, key.rate_per_minute);
    reply.header('x-ratelimit-limit', decision.limit);
    reply.header('x-ratelimit-remaining', decision.remaining);
    reply.header('x-ratelimit-reset', decision.reset);
    if (!decision.allowed) throw errors.rateLimited(decision.retryAfterSeconds);

    const now = ctx.clock.now().getTime();
    if ((lastTouched.get(key.id) ?? 0) + LAST_USED_RESOLUTION_MS <= now) {
      lastTouched.set(key.id, now);
      await touchApiKey(ctx.db, key.id, new Date(now));
    }
  };
}

/**
 * Answers a customer API request that presented no valid key: with `refusal` (403 or 401), or with
 * 429 once its client address has used up the default budget (5/s, 300/min, as a key has), and
 * either way with the rate-limit headers of that address's budget, reported as for keys (the
 * per-minute window, or the per-second one when that is what refused). Without this an
 * unauthenticated client would be unlimited and get no headers (spec 8: every response, all API
 * requests). The address is `req.ip`: the peer, or the client named by trusted proxies (VERITY_TRUST_PROXY).
 */
export async function refuseWithoutKey(limiter: ApiRateLimiter, req: FastifyRequest, reply: FastifyReply, refusal: ApiError): Promise<never> {
  const decision = await limiter.consumeAddress(req.ip, DEFAULT_RATE_PER_SECOND, DEFAULT_RATE_PER_MINUTE);
  reply.header('x-ratelimit-limit', decision.limit);
  reply.header('x-ratelimit-remaining', decision.remaining);
  reply.header('x-ratelimit-reset', decision.reset);
  throw decision.allowed ? refusal : errors.rateLimited(decision.retryAfterSeconds);
}
