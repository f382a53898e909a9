import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { LimiterFactory } from '../../server/http/rate-limit.js';

/**
 * One store for every limiter it makes, like Redis for every process: limiters of one prefix share
 * counts. Handed to two test servers, it makes them count together as scale-out processes do.
 */
export function sharedMemoryFactory(): LimiterFactory {
  const made = new Map<string, RateLimiterMemory>();
  return (points, duration, keyPrefix) => {
    const id = `${keyPrefix}:${points}:${duration}`;
    let limiter = made.get(id);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points, duration, keyPrefix });
      made.set(id, limiter);
    }
    return limiter;
  };
}
