/**
 * Which frames of a move the widget sends. The server checks that a turn passed through the poses
 * in between (a frame between 25 % and 75 % of the final turn): the last `frames_per_step` frames
 * alone can all be near the end of a slow or plateauing turn, and a real turn was then refused as
 * `MOTION_NOT_CONTINUOUS`. So the move's frames are pooled over the whole move (bounded) and the
 * ones sent are spread evenly in time from its first frame to the held pose.
 */

/** The pool holds at most this many times the frames sent (each is a 640 px canvas). */
export const MOVE_POOL_FACTOR = 4;

/**
 * Adds `frame` to a move's pool (oldest first, `timeOf` increasing). Past `keep` ×
 * {@link MOVE_POOL_FACTOR} frames, the inner frame whose neighbours are closest in time goes: the
 * pool stays spread evenly over the whole move, its first frame and the newest kept.
 */
export function poolMoveFrame<T>(pool: readonly T[], frame: T, keep: number, timeOf: (frame: T) => number): T[] {
  const next = [...pool, frame];
  if (next.length <= Math.max(3, keep * MOVE_POOL_FACTOR)) return next;
  let drop = 1;
  for (let i = 2; i < next.length - 1; i++) {
    if (timeOf(next[i + 1]!) - timeOf(next[i - 1]!) < timeOf(next[drop + 1]!) - timeOf(next[drop - 1]!)) drop = i;
  }
  next.splice(drop, 1);
  return next;
}

/**
 * The `keep` frames of `pool` sent for a move, in order: its first, its last (the held pose) and
 * between them the frames nearest to evenly spaced times (`timeOf`, increasing).
 */
export function spreadOverMove<T>(pool: readonly T[], keep: number, timeOf: (frame: T) => number): T[] {
  if (keep <= 0) return [];
  if (pool.length <= keep) return [...pool];
  if (keep === 1) return [pool.at(-1)!];
  const last = pool.length - 1;
  const chosen = new Set<number>([0, last]);
  const t0 = timeOf(pool[0]!);
  const span = timeOf(pool[last]!) - t0;
  for (let k = 1; k < keep - 1; k++) {
    const target = t0 + (span * k) / (keep - 1);
    let best = -1;
    for (let i = 1; i < last; i++) {
      if (chosen.has(i)) continue;
      if (best < 0 || Math.abs(timeOf(pool[i]!) - target) < Math.abs(timeOf(pool[best]!) - target)) best = i;
    }
    if (best >= 0) chosen.add(best);
  }
  return [...chosen].sort((a, b) => a - b).map((i) => pool[i]!);
}
