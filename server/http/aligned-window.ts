import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimiterFactory } from './limiter-factory.js';

/**
 * How long a window's key outlives the window in the store. The store's own expiry only clears old
 * keys (a window's key is used inside that window only); the grace keeps a key alive to its
 * window's end whenever its first use came, also when the app's clock and the store's differ.
 */
const KEY_GRACE_SECONDS = 60;

/** The count of one id in the window that holds a moment. */
export interface WindowCount {
  /** False when this take went past the window's points. */
  allowed: boolean;
  /** Points used in the window, this take included (refused takes count too). */
  used: number;
  remaining: number;
  /** When the window ends (Unix ms); always a multiple of the window's length. */
  resetMs: number;
}

/**
 * Fixed windows aligned to the clock: a 1-second window starts at every whole second, a 1-minute
 * window at every whole minute, whoever asked first. rate-limiter-flexible starts a window at the
 * first request of a key instead, so two limiters (per second, per minute) drift against each
 * other and against the clock: a client pacing 6 requests a second got 208 of 300 a minute and,
 * in one clock second, 6 (issue 18). Here the time comes from the app's Clock and names the
 * window in the key (`id@window number`); the factory's limiter (memory, or Redis shared by every
 * process) only counts atomically.
 */
export class AlignedWindow {
  readonly #limiter: RateLimiterAbstract;
  readonly #windowMs: number;

  constructor(factory: LimiterFactory, points: number, windowSeconds: number, prefix: string) {
    this.#windowMs = windowSeconds * 1000;
    this.#limiter = factory(points, windowSeconds + KEY_GRACE_SECONDS, prefix);
  }

  /** The end (Unix ms) of the window holding `nowMs`. */
  endOf(nowMs: number): number {
    return (Math.floor(nowMs / this.#windowMs) + 1) * this.#windowMs;
  }

  /** Takes `points` from `id`'s window at `nowMs`, refused (not thrown) past the budget. */
  async take(id: string, nowMs: number, points = 1): Promise<WindowCount> {
    const resetMs = this.endOf(nowMs);
    try {
      const res = await this.#limiter.consume(this.#key(id, nowMs), points);
      return { allowed: true, used: res.consumedPoints, remaining: Math.max(0, res.remainingPoints), resetMs };
    } catch (rejection: unknown) {
      // A rejection is a RateLimiterRes (over budget); anything else (Redis away) is an error.
      if (rejection instanceof RateLimiterRes) return { allowed: false, used: rejection.consumedPoints, remaining: 0, resetMs };
      throw rejection;
    }
  }

  /** Points used in `id`'s window at `nowMs`, without taking any. */
  async used(id: string, nowMs: number): Promise<number> {
    const res = await this.#limiter.get(this.#key(id, nowMs));
    return res?.consumedPoints ?? 0;
  }

  /** Gives back points taken in `id`'s window at `nowMs` (an attempt that turned out not to count). */
  async giveBack(id: string, nowMs: number, points = 1): Promise<void> {
    await this.#limiter.reward(this.#key(id, nowMs), points);
  }

  /** Forgets `id`'s window at `nowMs`. */
  async clear(id: string, nowMs: number): Promise<void> {
    await this.#limiter.delete(this.#key(id, nowMs));
  }

  #key(id: string, nowMs: number): string {
    return `${id}@${Math.floor(nowMs / this.#windowMs)}`;
  }
}

/** Whole seconds from `nowMs` to `untilMs`, at least 1: a Retry-After. */
export function secondsUntil(untilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
}
