import type { Clock } from '../../server/clock.js';

/** A clock that only moves when told to; the server takes any Clock, tests give it this one. */
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
