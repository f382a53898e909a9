/**
 * The retry schedule of architecture.md: after the first attempt fails, retries follow after
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts in all), each with jitter; then the
 * delivery is failed and can be retried by hand within 30 days.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Jitter: each delay is stretched by up to this fraction, so retries of one outage spread out. */
export const JITTER = 0.1;
export const DAY_MS = 86_400_000;
/** A failed delivery may be retried by hand this long after it was created (spec 6.1). */
export const MANUAL_RETRY_WINDOW_MS = 30 * DAY_MS;
/** An endpoint whose every attempt failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY_MS;
/** Receivers must answer within this time (architecture.md). */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** Upper bound on a receiver's Retry-After, so a typo cannot park a delivery for months. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * The wait before the next attempt after `attemptsMade` failed ones, or null when none is left.
 * `random` in [0, 1) picks the jitter (injectable for tests).
 */
export function nextRetryDelay(attemptsMade: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + JITTER * random()));
}

/**
 * A receiver's `Retry-After` (seconds or an HTTP date) as a delay in ms, bounded to [1 s, 24 h];
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 1000), MAX_RETRY_AFTER_MS);
}
