import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { sessionErrors } from './errors.js';

/**
 * Abuse limits of the session API (rate-limiter-flexible, in memory: per process). Codes and
 * knowledge answers have their own limits in the database; these bound the rest: starting sessions
 * from one IP, and the number of uploads one user can store.
 */
export class SessionLimits {
  readonly #starts = new RateLimiterMemory({ keyPrefix: 'session-start', points: 30, duration: 60 });
  readonly #uploads = new RateLimiterMemory({ keyPrefix: 'session-upload', points: 60, duration: 600 });

  /** `POST /session/start` and hand-off claims: 30 a minute per IP. */
  start(ip: string): Promise<void> {
    return take(this.#starts, ip);
  }

  /** Document and face uploads: 60 per 10 minutes per user. */
  upload(userId: number): Promise<void> {
    return take(this.#uploads, String(userId));
  }
}

async function take(limiter: RateLimiterMemory, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection: unknown) {
    if (rejection instanceof RateLimiterRes) throw sessionErrors.resendTooSoon(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    throw rejection;
  }
}
