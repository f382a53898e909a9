import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Makes a limiter for `points` per `durationSeconds`; memory now, Redis in scale-out (same code path). */
export type LimiterFactory = (points: number, durationSeconds: number, prefix: string) => RateLimiterAbstract;

export const memoryLimiterFactory: LimiterFactory = (points, duration, keyPrefix) => new RateLimiterMemory({ points, duration, keyPrefix });
