/** Time source. Everything that reads the time takes a Clock so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
