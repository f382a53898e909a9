import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Makes a limiter for `points` per `durationSeconds`; memory now, Redis in scale-out (same code path). */
export type LimiterFactory = (points: number, durationSeconds: number, prefix: string) => RateLimiterAbstract;

export const memoryLimiterFactory: LimiterFactory = (points, duration, keyPrefix) => new RateLimiterMemory({ points, duration, keyPrefix });

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds (UTC) when the reported window resets. */
  reset: number;
  retryAfterSeconds: number;
}

/**
 * Per-key limits: a per-second and a per-minute window (spec 8: 5/s and 300/min by default). The
 * headers report the per-minute window, or the per-second one when that is what refused.
 *
 * Requests that present no valid key are counted per client address instead
 * ({@link ApiRateLimiter.consumeAddress}), in windows of their own: an address never shares a
 * counter with a key, and a key's requests never count against their address.
 */
export class ApiRateLimiter {
  readonly #keyLimiters = new Map<string, RateLimiterAbstract>();
  readonly #addressLimiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly factory: LimiterFactory = memoryLimiterFactory) {}

  #limiter(limiters: Map<string, RateLimiterAbstract>, prefix: string, points: number, duration: number): RateLimiterAbstract {
    const id = `${points}/${duration}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = this.factory(points, duration, `${prefix}:${duration}s:${points}`);
      limiters.set(id, limiter);
    }
    return limiter;
  }

  /** One request of the API key `keyId`. Not `async` itself: the hottest path awaits no more than it must. */
  consume(keyId: string, perSecond: number, perMinute: number, nowMs = Date.now()): Promise<RateDecision> {
    return this.#decide(this.#keyLimiters, 'rl', keyId, perSecond, perMinute, nowMs);
  }

  /**
   * One request from the client address `address` that presented no valid key (spec 8: the request
   * rate applies to all API requests, 401 and 403 answers included). Reported as for keys.
   */
  consumeAddress(address: string, perSecond: number, perMinute: number, nowMs = Date.now()): Promise<RateDecision> {
    return this.#decide(this.#addressLimiters, 'rl-addr', address, perSecond, perMinute, nowMs);
  }

  async #decide(
    limiters: Map<string, RateLimiterAbstract>,
    prefix: string,
    id: string,
    perSecond: number,
    perMinute: number,
    nowMs: number,
  ): Promise<RateDecision> {
    const second = await this.#take(this.#limiter(limiters, prefix, perSecond, 1), id);
    if (!second.ok) return refused(perSecond, second.res, nowMs);
    const minute = await this.#take(this.#limiter(limiters, prefix, perMinute, 60), id);
    if (!minute.ok) return refused(perMinute, minute.res, nowMs);
    return {
      allowed: true,
      limit: perMinute,
      remaining: Math.max(0, minute.res.remainingPoints),
      reset: Math.ceil((nowMs + minute.res.msBeforeNext) / 1000),
      retryAfterSeconds: 0,
    };
  }

  async #take(limiter: RateLimiterAbstract, key: string): Promise<{ ok: boolean; res: RateLimiterRes }> {
    try {
      return { ok: true, res: await limiter.consume(key) };
    } catch (rejection: unknown) {
      if (rejection instanceof RateLimiterRes) return { ok: false, res: rejection };
      throw rejection;
    }
  }
}

function refused(limit: number, res: RateLimiterRes, nowMs: number): RateDecision {
  return {
    allowed: false,
    limit,
    remaining: 0,
    reset: Math.ceil((nowMs + res.msBeforeNext) / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
