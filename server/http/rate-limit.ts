import { systemClock, type Clock } from '../clock.js';
import { AlignedWindow, secondsUntil, type WindowCount } from './aligned-window.js';
import { memoryLimiterFactory, type LimiterFactory } from './limiter-factory.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds (UTC) when the reported window resets. */
  reset: number;
  retryAfterSeconds: number;
}

/**
 * Per-key limits: a per-second and a per-minute window (spec 8: 5/s and 300/min by default), both
 * aligned to the clock ({@link AlignedWindow}): a client pacing itself at the per-second budget
 * gets exactly that many in every clock second and the per-minute budget in every clock minute.
 * The headers report the per-minute window, or the per-second one when that is what refused.
 *
 * Requests that present no valid key are counted per client address instead
 * ({@link ApiRateLimiter.consumeAddress}), in windows of their own: an address never shares a
 * counter with a key, and a key's requests never count against their address.
 */
export class ApiRateLimiter {
  readonly #keyWindows: WindowSet;
  readonly #addressWindows: WindowSet;

  constructor(
    factory: LimiterFactory = memoryLimiterFactory,
    private readonly clock: Clock = systemClock,
  ) {
    this.#keyWindows = new WindowSet('rl', factory);
    this.#addressWindows = new WindowSet('rl-addr', factory);
  }

  /** One request of the API key `keyId`. */
  consume(keyId: string, perSecond: number, perMinute: number): Promise<RateDecision> {
    return this.#decide(this.#keyWindows, keyId, perSecond, perMinute);
  }

  /**
   * One request from the client address `address` that presented no valid key (spec 8: the request
   * rate applies to all API requests, 401 and 403 answers included). Reported as for keys.
   */
  consumeAddress(address: string, perSecond: number, perMinute: number): Promise<RateDecision> {
    return this.#decide(this.#addressWindows, address, perSecond, perMinute);
  }

  /**
   * The rate-limit headers of an address's budget without charging it: for answers that cannot be
   * counted (nothing to count against yet, or the store is not reachable from there).
   */
  peekAddress(address: string, perMinute: number): Promise<RateDecision> {
    const nowMs = this.clock.now().getTime();
    const minute = this.#addressWindows.get(perMinute, 60);
    return minute.used(address, nowMs).then((used) => ({
      allowed: used < perMinute,
      limit: perMinute,
      remaining: Math.max(0, perMinute - used),
      reset: minute.endOf(nowMs) / 1000,
      retryAfterSeconds: 0,
    }));
  }

  /** The per-minute window is charged only when the per-second one allowed the request. */
  async #decide(windows: WindowSet, id: string, perSecond: number, perMinute: number): Promise<RateDecision> {
    const nowMs = this.clock.now().getTime();
    const second = await windows.get(perSecond, 1).take(id, nowMs);
    if (!second.allowed) return refused(perSecond, second, nowMs);
    const minute = await windows.get(perMinute, 60).take(id, nowMs);
    if (!minute.allowed) return refused(perMinute, minute, nowMs);
    return { allowed: true, limit: perMinute, remaining: minute.remaining, reset: minute.resetMs / 1000, retryAfterSeconds: 0 };
  }
}

/**
 * One window per budget (points per window length), made on first use. Looked up by its two
 * numbers on every request, with no string to build: keys share a handful of budgets.
 */
class WindowSet {
  readonly #byDuration = new Map<number, Map<number, AlignedWindow>>();

  constructor(
    private readonly prefix: string,
    private readonly factory: LimiterFactory,
  ) {}

  get(points: number, windowSeconds: number): AlignedWindow {
    let byPoints = this.#byDuration.get(windowSeconds);
    if (!byPoints) {
      byPoints = new Map();
      this.#byDuration.set(windowSeconds, byPoints);
    }
    let window = byPoints.get(points);
    if (!window) {
      window = new AlignedWindow(this.factory, points, windowSeconds, `${this.prefix}:${windowSeconds}s:${points}`);
      byPoints.set(points, window);
    }
    return window;
  }
}

function refused(limit: number, count: WindowCount, nowMs: number): RateDecision {
  return { allowed: false, limit, remaining: 0, reset: count.resetMs / 1000, retryAfterSeconds: secondsUntil(count.resetMs, nowMs) };
}
