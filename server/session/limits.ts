import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { memoryLimiterFactory, type LimiterFactory } from '../http/limiter-factory.js';
import { sessionErrors } from '../errors.js';

/** Failed `POST /session/start`s and hand-off claims per client address, per minute. */
export const SESSION_STARTS_PER_IP_PER_MINUTE = 30;
/** Document, card, voice and video uploads per user, per 10 minutes (face frames have their own budget). */
export const SESSION_UPLOADS_PER_USER = 60;
export const SESSION_UPLOAD_WINDOW_SECONDS = 600;
/**
 * Face frames per user, per the same 10 minutes. A liveness attempt sends up to 46 dense frames
 * (6 straight, 10 flash colours, up to 3 moves of 6, 12 for the blink) and a user has four
 * attempts: under the 60 uploads above, an honest user's second attempt was refused (429). The
 * frames stay bounded: each fills a numbered slot of a challenge (a resend replaces it) and
 * challenges are limited by the attempts; this budget only bounds resending into the slots.
 */
export const SESSION_FRAMES_PER_USER = 300;

/**
 * Abuse limits of the session API, through the deployment's limiter factory: in memory embedded,
 * counted in Redis in scale-out, so every API process shares one budget per IP and per user.
 * Codes (sending, resending, guessing) and knowledge answers are limited in the database, shared
 * already; these bound the rest: starting sessions from one IP, and the uploads one user can store.
 */
export class SessionLimits {
  readonly #starts: RateLimiterAbstract;
  readonly #uploads: RateLimiterAbstract;
  readonly #frames: RateLimiterAbstract;

  constructor(factory: LimiterFactory = memoryLimiterFactory) {
    this.#starts = factory(SESSION_STARTS_PER_IP_PER_MINUTE, 60, 'session-start');
    this.#uploads = factory(SESSION_UPLOADS_PER_USER, SESSION_UPLOAD_WINDOW_SECONDS, 'session-upload');
    this.#frames = factory(SESSION_FRAMES_PER_USER, SESSION_UPLOAD_WINDOW_SECONDS, 'session-frame');
  }

  /**
   * A `POST /session/start` or hand-off claim from `address`: refused (429) once the address has
   * failed 30 times in a minute. The try is counted at once, so parallel tries cannot all pass;
   * `run` is the start itself, and a start that succeeds is given back: only failures count (issue
   * 18). Behind a load balancer all end users share its address unless VERITY_TRUST_PROXY names it,
   * and counting their successful starts refused them all once 30 had started in a minute. There is
   * no per-account count to add: a start presents a signed link or a random hand-off token, not a
   * user's secret to guess, so a failure cannot be pinned on a user and need not slow one down.
   */
  async start<T>(address: string, run: () => Promise<T>): Promise<T> {
    await take(this.#starts, address);
    const started = await run();
    await this.#starts.reward(address, 1);
    return started;
  }

  /** Document, card, voice and video uploads: 60 per 10 minutes per user. */
  upload(userId: number): Promise<void> {
    return take(this.#uploads, String(userId));
  }

  /** Face frames (selfie and liveness): 300 per 10 minutes per user, apart from the uploads. */
  frame(userId: number): Promise<void> {
    return take(this.#frames, String(userId));
  }
}

async function take(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection: unknown) {
    if (rejection instanceof RateLimiterRes) throw sessionErrors.resendTooSoon(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    throw rejection;
  }
}
