/**
 * A PDF417 module grid fitted from its two ends apart (the soft reader's last try at a column
 * count, pdf417-soft.ts): findGrid (pdf417-grid.ts) fits the start and stop patterns with one
 * module size, and a quadratic through the codeword boundaries lets that size change only
 * linearly along the rows. A lens bends it both ways at once (pincushion: larger modules at
 * both ends than in the middle), so with the right count the ends are placed modules off their
 * patterns, the row indicators beside them misread, and the count is never confirmed
 * (development `columns-wide` 3 and 6: the indicators named the count on the neighbouring
 * counts' grids, garbled on its own). Here each end pattern gets its own place and module size,
 * a cubic joins them with those sizes at the ends, and the grid runs through the codeword
 * boundaries found near it.
 */
import { blurModules, dot, moduleVector, normalise, piecewise, runsToBits, SIGMAS, START, strongestRise, STOP, type Grid } from './pdf417-grid.js';

/** How far each end is searched: modules from where the fitted ends put it, and module sizes round the mean. */
const REACH = 8;
const SIZE_STEPS = 40;
const SIZE_STEP = 0.005;

/** The grid of `columns` columns between the fitted ends x0 and x1 of the averaged profile `avg`; null when an end pattern is not found. */
export function findGridByEnds(avg: Float64Array, x0: number, x1: number, columns: number): Grid | null {
  const total = 17 * columns + 69;
  const mod0 = (x1 - x0) / total;
  if (mod0 < 1.2) return null;
  type End = { score: number; x: number; mod: number };
  let best: { sigma: number; start: End; stop: End } | null = null;
  for (const sigma of SIGMAS) {
    const ts = normalise(blurModules(runsToBits(START), sigma, 0, 1))!;
    const tp = normalise(blurModules(runsToBits(STOP), sigma, 1, 0))!;
    let start: End = { score: -2, x: x0, mod: mod0 };
    let stop: End = { score: -2, x: x1, mod: mod0 };
    for (let dx = -REACH; dx <= REACH; dx += 0.25) {
      for (let k = -SIZE_STEPS; k <= SIZE_STEPS; k++) {
        const mod = mod0 * (1 + k * SIZE_STEP);
        const left = x0 + dx * mod0;
        const vs = normalise(moduleVector(avg, (m) => left + m * mod, 0, 17));
        const s = vs ? dot(vs, ts) : -2;
        if (s > start.score) start = { score: s, x: left, mod };
        const right = x1 + dx * mod0;
        const vp = normalise(moduleVector(avg, (m) => right - (total - m) * mod, total - 18, 18));
        const p = vp ? dot(vp, tp) : -2;
        if (p > stop.score) stop = { score: p, x: right, mod };
      }
    }
    if (!best || start.score + stop.score > best.start.score + best.stop.score) best = { sigma, start, stop };
  }
  if (!best || best.start.score + best.stop.score < 1.6) return null;
  const { sigma, start, stop } = best;
  // Hermite cubic in t = m / total: the ends' places and their module sizes.
  const span = stop.x - start.x;
  const [d0, d1] = [start.mod * total, stop.mod * total];
  const cubic = (m: number): number => {
    const t = m / total;
    const t2 = t * t;
    const t3 = t2 * t;
    return (2 * t3 - 3 * t2 + 1) * start.x + (t3 - 2 * t2 + t) * d0 + (-2 * t3 + 3 * t2) * (start.x + span) + (t3 - t2) * d1;
  };
  // Each codeword boundary (a space then a bar in every row) looked for within most of a module
  // of where the cubic puts it; kept where it lies within 0.4 of a module, the cubic's place where not.
  const ms: number[] = [];
  const xs: number[] = [];
  for (let b = 0; b <= columns + 2; b++) {
    const m = 17 + 17 * b;
    const guess = cubic(m);
    const mod = cubic(m + 0.5) - cubic(m - 0.5);
    const bx = strongestRise(avg, guess, mod).at;
    ms.push(m);
    xs.push(Math.abs(bx - guess) <= 0.4 * mod ? bx : guess);
  }
  return { columns, sigma, at: (m) => piecewise(ms, xs, m) };
}
