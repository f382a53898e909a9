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
 */
export class ApiRateLimiter {
  readonly #limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly factory: LimiterFactory = memoryLimiterFactory) {}

  #limiter(points: number, duration: number): RateLimiterAbstract {
    const id = `${points}/${duration}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) {
      limiter = this.factory(points, duration, `rl:${duration}s:${points}`);
      this.#limiters.set(id, limiter);
    }
    return limiter;
  }

  async consume(keyId: string, perSecond: number, perMinute: number, nowMs = Date.now()): Promise<RateDecision> {
    const second = await this.#take(this.#limiter(perSecond, 1), keyId);
    if (!second.ok) return refused(perSecond, second.res, nowMs);
    const minute = await this.#take(this.#limiter(perMinute, 60), keyId);
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
