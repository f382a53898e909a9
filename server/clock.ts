/** Time source. Everything that reads the time takes a Clock so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests and simulations. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string = '2026-06-15T12:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  set(to: Date | string): void {
    this.#ms = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the spec's timestamp format for user fields. */
export function formatSqlTimestamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** ISO 8601 UTC with milliseconds; the storage format (sorts as text on every database). */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}
