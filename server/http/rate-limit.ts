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
  readonly #keyLimiters: LimiterSet;
  readonly #addressLimiters: LimiterSet;

  constructor(factory: LimiterFactory = memoryLimiterFactory) {
    this.#keyLimiters = new LimiterSet('rl', factory);
    this.#addressLimiters = new LimiterSet('rl-addr', factory);
  }

  /** One request of the API key `keyId`. Not `async` itself: the hottest path awaits no more than it must. */
  consume(keyId: string, perSecond: number, perMinute: number, nowMs = Date.now()): Promise<RateDecision> {
    return this.#decide(this.#keyLimiters, keyId, perSecond, perMinute, nowMs);
  }

  /**
   * One request from the client address `address` that presented no valid key (spec 8: the request
   * rate applies to all API requests, 401 and 403 answers included). Reported as for keys.
   */
  consumeAddress(address: string, perSecond: number, perMinute: number, nowMs = Date.now()): Promise<RateDecision> {
    return this.#decide(this.#addressLimiters, address, perSecond, perMinute, nowMs);
  }

  /** The per-minute window is charged only when the per-second one allowed the request. */
  async #decide(limiters: LimiterSet, id: string, perSecond: number, perMinute: number, nowMs: number): Promise<RateDecision> {
    let minute: RateLimiterRes;
    try {
      await limiters.get(perSecond, 1).consume(id);
    } catch (rejection: unknown) {
      return refusedBy(rejection, perSecond, nowMs);
    }
    try {
      minute = await limiters.get(perMinute, 60).consume(id);
    } catch (rejection: unknown) {
      return refusedBy(rejection, perMinute, nowMs);
    }
    return {
      allowed: true,
      limit: perMinute,
      remaining: Math.max(0, minute.remainingPoints),
      reset: Math.ceil((nowMs + minute.msBeforeNext) / 1000),
      retryAfterSeconds: 0,
    };
  }
}

/**
 * One limiter per budget (points per window), made on first use. Looked up by its two numbers on
 * every request, with no string to build: keys share a handful of budgets.
 */
class LimiterSet {
  readonly #byDuration = new Map<number, Map<number, RateLimiterAbstract>>();

  constructor(
    private readonly prefix: string,
    private readonly factory: LimiterFactory,
  ) {}

  get(points: number, durationSeconds: number): RateLimiterAbstract {
    let byPoints = this.#byDuration.get(durationSeconds);
    if (!byPoints) {
      byPoints = new Map();
      this.#byDuration.set(durationSeconds, byPoints);
    }
    let limiter = byPoints.get(points);
    if (!limiter) {
      limiter = this.factory(points, durationSeconds, `${this.prefix}:${durationSeconds}s:${points}`);
      byPoints.set(points, limiter);
    }
    return limiter;
  }
}

/** A limiter's rejection is a `RateLimiterRes` (over budget); anything else (Redis down) is an error. */
function refusedBy(rejection: unknown, limit: number, nowMs: number): RateDecision {
  if (rejection instanceof RateLimiterRes) return refused(limit, rejection, nowMs);
  throw rejection;
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
