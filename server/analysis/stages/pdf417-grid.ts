/**
 * The module grid of a straightened PDF417 symbol and its codewords read in grey (the soft
 * reader's measuring part, pdf417-soft.ts): the column count and blur from the start and stop
 * patterns, the codeword boundaries along the rows, and each codeword compared with the 929
 * patterns of its cluster blurred as much as the symbol is.
 */
import type { GreyPlane } from '../raster.js';
import { PDF417_PATTERNS } from './pdf417-patterns.js';

/** Modules of the start pattern (8 1 1 1 1 1 1 3) and of the stop pattern (7 1 1 3 1 1 1 2 1). */
export const START = [8, 1, 1, 1, 1, 1, 1, 3];
export const STOP = [7, 1, 1, 3, 1, 1, 1, 2, 1];
/** Blur widths tried, in modules (Gaussian σ). */
export const SIGMAS = [0.35, 0.5, 0.65, 0.8, 1.0];

/** Bits (1 = bar) of a run-length pattern starting with a bar. */
export function runsToBits(runs: readonly number[]): number[] {
  return runs.flatMap((w, i) => new Array<number>(w).fill(i % 2 === 0 ? 1 : 0));
}

/** Darkness of each module under a Gaussian of `sigma` modules, with `left` / `right` (0 space, 1 bar) beyond. */
export function blurModules(bits: readonly number[], sigma: number, left: number, right: number): Float64Array {
  const pad = 3;
  const ext = [...new Array<number>(pad).fill(left), ...bits, ...new Array<number>(pad).fill(right)];
  // Eight samples per module, blurred, averaged back per module: a box module under the Gaussian.
  const sub = 8;
  const fine = new Float64Array(ext.length * sub);
  for (let i = 0; i < fine.length; i++) fine[i] = ext[Math.floor(i / sub)]!;
  const s = sigma * sub;
  const r = Math.ceil(3 * s);
  const w = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * s * s)));
  const ws = w.reduce((a, b) => a + b, 0);
  const out = new Float64Array(bits.length);
  for (let m = 0; m < bits.length; m++) {
    let acc = 0;
    for (let k = 0; k < sub; k++) {
      const c = (m + pad) * sub + k;
      let v = 0;
      for (let d = -r; d <= r; d++) v += w[d + r]! * fine[Math.min(fine.length - 1, Math.max(0, c + d))]!;
      acc += v / ws;
    }
    out[m] = acc / sub;
  }
  return out;
}

/** Zero mean, unit norm (null for a flat vector). */
export function normalise(v: ArrayLike<number>): Float64Array | null {
  const n = v.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += v[i]!;
  mean /= n;
  const out = new Float64Array(n);
  let ss = 0;
  for (let i = 0; i < n; i++) {
    out[i] = v[i]! - mean;
    ss += out[i]! ** 2;
  }
  if (ss < 1e-9) return null;
  const k = 1 / Math.sqrt(ss);
  for (let i = 0; i < n; i++) out[i]! *= k;
  return out;
}

export const dot = (a: Float64Array, b: Float64Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/**
 * Normalised blurred templates per σ and cluster, each cluster's 929 patterns one after another
 * in one flat array (17 values each): a codeword follows a space and precedes a bar.
 */
const templates = new Map<number, Float64Array[]>();
export function templatesFor(sigma: number): Float64Array[] {
  let t = templates.get(sigma);
  if (!t) {
    t = PDF417_PATTERNS.map((cluster) => {
      const flat = new Float64Array(cluster.length * 17);
      cluster.forEach((p, k) =>
        flat.set(
          normalise(
            blurModules(
              Array.from({ length: 17 }, (_, i) => (p >> (16 - i)) & 1),
              sigma,
              0,
              1,
            ),
          )!,
          k * 17,
        ),
      );
      return flat;
    });
    templates.set(sigma, t);
  }
  return t;
}

/** Mean of a profile over [a, b) in fractional pixels. */
export function spanMean(p: Float64Array, a: number, b: number): number {
  const lo = Math.max(0, a);
  const hi = Math.min(p.length, b);
  if (hi <= lo) return 0;
  let s = 0;
  let x = lo;
  while (x < hi) {
    const i = Math.floor(x);
    const next = Math.min(hi, i + 1);
    s += p[i]! * (next - x);
    x = next;
  }
  return s / (hi - lo);
}

/** Darkness (255 − grey) along a band: at column x, the rows from `top(x)` to `bottom(x)` averaged. */
export function bandProfile(g: GreyPlane, top: (x: number) => number, bottom: (x: number) => number): Float64Array {
  const p = new Float64Array(g.width);
  for (let x = 0; x < g.width; x++) {
    const a = Math.max(0, Math.min(g.height - 1, Math.floor(top(x))));
    const b = Math.min(g.height, Math.max(a + 1, Math.ceil(bottom(x))));
    let s = 0;
    for (let y = a; y < b; y++) s += 255 - g.data[y * g.width + x]!;
    p[x] = s / (b - a);
  }
  return p;
}

/** The module grid along the rows: module boundary `m` is at x = `at(m)`. */
/**
 * The strongest dark-to-light step within 0.8 module of `guess`, searched in eighths of a module:
 * a codeword boundary (a bar ends, a space begins) as the profile shows it.
 */
export function strongestRise(avg: Float64Array, guess: number, mod: number): { at: number; step: number } {
  let at = guess;
  let best = -Infinity;
  for (let d = -0.8 * mod; d <= 0.8 * mod; d += mod / 8) {
    const step = spanMean(avg, guess + d, guess + d + mod) - spanMean(avg, guess + d - mod, guess + d);
    if (step > best) {
      best = step;
      at = guess + d;
    }
  }
  return { at, step: best };
}

export interface Grid {
  readonly columns: number;
  readonly sigma: number;
  readonly at: (m: number) => number;
  /** The same grid through the boundaries found rather than the quadratic through them. */
  readonly through?: Grid;
}

export function moduleVector(p: Float64Array, at: (m: number) => number, m0: number, len: number, shift = 0): Float64Array {
  const v = new Float64Array(len);
  for (let i = 0; i < len; i++) v[i] = spanMean(p, at(m0 + i + shift), at(m0 + i + 1 + shift));
  return v;
}

/** Least squares x = a m² + b m + c through the boundaries, refitted without the ones far off it. */
function quadFit(ms: readonly number[], xs: readonly number[], left: number, mod: number): [number, number, number] {
  const S = Math.max(...ms);
  const solve = (idx: readonly number[]): [number, number, number] | null => {
    const A = [0, 1, 2].map(() => [0, 0, 0, 0]);
    for (const i of idx) {
      const t = ms[i]! / S;
      const row = [t * t, t, 1];
      for (let r = 0; r < 3; r++) {
        for (let q = 0; q < 3; q++) A[r]![q]! += row[r]! * row[q]!;
        A[r]![3]! += row[r]! * xs[i]!;
      }
    }
    for (let col = 0; col < 3; col++) {
      let p = col;
      for (let r = col + 1; r < 3; r++) if (Math.abs(A[r]![col]!) > Math.abs(A[p]![col]!)) p = r;
      if (Math.abs(A[p]![col]!) < 1e-12) return null;
      [A[col], A[p]] = [A[p]!, A[col]!];
      for (let r = 0; r < 3; r++) {
        if (r === col) continue;
        const f = A[r]![col]! / A[col]![col]!;
        for (let q = col; q < 4; q++) A[r]![q]! -= f * A[col]![q]!;
      }
    }
    const [a, b, c] = [0, 1, 2].map((i) => A[i]![3]! / A[i]![i]!) as [number, number, number];
    return [a / (S * S), b / S, c];
  };
  const all = ms.map((_, i) => i);
  const first = ms.length >= 4 ? solve(all) : null;
  if (!first) return [0, mod, left];
  const keep = all.filter((i) => Math.abs(first[0] * ms[i]! ** 2 + first[1] * ms[i]! + first[2] - xs[i]!) <= Math.max(0.4 * mod, 1));
  return (keep.length >= Math.max(4, ms.length * 0.6) ? solve(keep) : null) ?? first;
}

/**
 * The grid: the column count and blur whose start and stop patterns best fit the averaged
 * profile between the fitted ends, then each codeword boundary (a space then a bar in every
 * row) found near where that grid puts it, and a quadratic through them (the lens bends the
 * rows' scale). `columns`, when the row indicators have said it, is the only count tried.
 */
export function findGrid(avg: Float64Array, x0: number, x1: number, columns?: number): Grid | null {
  type Fit = { c: number; sigma: number; score: number; x0: number; mod: number };
  const perCount = new Map<number, Fit>();
  const startBits = runsToBits(START);
  const stopBits = runsToBits(STOP);
  for (const sigma of SIGMAS) {
    const ts = normalise(blurModules(startBits, sigma, 0, 1))!;
    const tp = normalise(blurModules(stopBits, sigma, 1, 0))!;
    for (let c = columns ?? 1; c <= (columns ?? 30); c++) {
      const total = 17 * c + 69;
      const mod0 = (x1 - x0) / total;
      if (mod0 < 1.2) break;
      // The fitted ends can be off by a module: the left end and the module size are searched.
      // With the count known (from the row indicators) the ends found by their edges may be
      // the ones that misled the first fit: the search is widened to 8 modules and ±8 %.
      const [reach, kmax] = columns === undefined ? [1, 2] : [8, 20];
      for (let dx = -reach; dx <= reach; dx += 0.25) {
        for (let k = -kmax; k <= kmax; k++) {
          const mod = mod0 * (1 + k * 0.004);
          const left = x0 + dx * mod0;
          const at = (m: number): number => left + m * mod;
          const vs = normalise(moduleVector(avg, at, 0, 17));
          const vp = normalise(moduleVector(avg, at, total - 18, 18));
          if (!vs || !vp) continue;
          const score = dot(vs, ts) + dot(vp, tp);
          const had = perCount.get(c);
          if (!had || score > had.score) perCount.set(c, { c, sigma, score, x0: left, mod });
        }
      }
    }
  }
  const fits = [...perCount.values()];
  const top = Math.max(...fits.map((f) => f.score));
  if (!(top >= 1.6)) return null;
  // Start and stop patterns fit a column more or less almost as well on a small symbol (the
  // module size 1/13 off is a module over each pattern); the codeword boundaries tell them
  // apart: with the right count every one of them is a step, with a wrong one they fall out of
  // step a module per codeword.
  let best: { fit: Fit; steps: number; ms: number[]; xs: number[] } | null = null;
  for (const fit of fits.filter((f) => f.score >= top - 0.1)) {
    for (const track of [false, true]) {
      const found = boundaries(avg, fit.c, fit.x0, fit.mod, track);
      if (!best || found.steps > best.steps) best = { fit, ...found };
    }
  }
  const { fit, ms, xs } = best!;
  const q = quadFit(ms, xs, fit.x0, fit.mod);
  const quad = (m: number): number => q[0] * m * m + q[1] * m + q[2];
  // `through`: through the boundaries themselves where they lie near the quadratic (a lens can
  // bend the module scale by more than a quadratic follows at the ends), its value where not.
  const knots = ms.map((m, i) => (Math.abs(xs[i]! - quad(m)) <= 0.4 * fit.mod ? xs[i]! : quad(m)));
  const through = (m: number): number => piecewise(ms, knots, m);
  return { columns: fit.c, sigma: fit.sigma, at: quad, through: { columns: fit.c, sigma: fit.sigma, at: through } };
}

/** Linear between knots (ms ascending), extended beyond the ends along the end segments. */
export function piecewise(ms: readonly number[], xs: readonly number[], m: number): number {
  let i = 0;
  while (i < ms.length - 2 && m > ms[i + 1]!) i++;
  const f = (m - ms[i]!) / (ms[i + 1]! - ms[i]!);
  return xs[i]! + f * (xs[i + 1]! - xs[i]!);
}

/**
 * Each codeword boundary (a space then a bar in every row: a step up in the averaged profile)
 * looked for within most of a module of where the start pattern's grid puts it, or with `track`
 * of a codeword on from the last one found (perspective changes the module size along the row,
 * and the middle can be more than a module off the first grid; tracking can also drift, so the
 * caller keeps whichever finds the higher steps). `steps`: their mean height.
 */
function boundaries(avg: Float64Array, c: number, left: number, mod: number, track: boolean): { steps: number; ms: number[]; xs: number[] } {
  const ms: number[] = [];
  const xs: number[] = [];
  let sum = 0;
  for (let b = 0; b <= c + 2; b++) {
    const m = 17 + 17 * b;
    const guess = b === 0 || !track ? left + m * mod : xs[b - 1]! + 17 * mod;
    const { at: bx, step: bestStep } = strongestRise(avg, guess, mod);
    ms.push(m);
    xs.push(bx);
    sum += bestStep;
  }
  return { steps: sum / (c + 3), ms, xs };
}

/** One codeword read: the best value, its correlation, and how far ahead of the runner-up. */
export interface Read {
  readonly value: number;
  readonly score: number;
  readonly margin: number;
  /** The shift along the row (modules) at which the best match was found. */
  readonly shift: number;
}

export function readCodeword(p: Float64Array, grid: Grid, m0: number, cluster: number, shifts: readonly number[] = [-0.3, 0, 0.3]): Read | null {
  const ts = templatesFor(grid.sigma)[cluster]!;
  const n = ts.length / 17;
  let best = -2;
  let second = -2;
  let value = -1;
  let at = 0;
  // A third of a module either way: what the quadratic grid leaves of the lens and the fit.
  for (const shift of shifts) {
    const v = normalise(moduleVector(p, grid.at, m0, 17, shift));
    if (!v) continue;
    // The 929 dot products unrolled over one flat array: this loop is most of the reader's time.
    const [v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16] = v as unknown as number[];
    for (let k = 0, o = 0; k < n; k++, o += 17) {
      const s =
        v0! * ts[o]! +
        v1! * ts[o + 1]! +
        v2! * ts[o + 2]! +
        v3! * ts[o + 3]! +
        v4! * ts[o + 4]! +
        v5! * ts[o + 5]! +
        v6! * ts[o + 6]! +
        v7! * ts[o + 7]! +
        v8! * ts[o + 8]! +
        v9! * ts[o + 9]! +
        v10! * ts[o + 10]! +
        v11! * ts[o + 11]! +
        v12! * ts[o + 12]! +
        v13! * ts[o + 13]! +
        v14! * ts[o + 14]! +
        v15! * ts[o + 15]! +
        v16! * ts[o + 16]!;
      if (s > best) {
        if (k !== value) second = best;
        best = s;
        value = k;
        at = shift;
      } else if (s > second && k !== value) second = s;
    }
  }
  return value < 0 ? null : { value, score: best, margin: best - second, shift: at };
}

/** Shifts searched for each codeword, in modules: what the quadratic grid leaves of a lens-bent row. */
const ALIGN = Array.from({ length: 33 }, (_, i) => -2 + i * 0.125);

/**
 * The shift along the rows (one of ALIGN) at which codeword column `m0` best matches its rows'
 * clusters, the rows where `rowTop` puts them: the interior anchors that place the rows read
 * their column at it (at the quadratic grid's own place a lens-bent column is read a module
 * off, and its rows then come out wrong).
 */
export function columnShift(g: GreyPlane, grid: Grid, m0: number, rows: number, rowTop: (row: number) => number): number {
  const profiles = Array.from({ length: rows }, (_, r) =>
    bandProfile(
      g,
      () => rowTop(r + 0.25),
      () => rowTop(r + 0.75),
    ),
  );
  let best = 0;
  let bestScore = -Infinity;
  for (const s of ALIGN) {
    let v = 0;
    profiles.forEach((p, r) => (v += readCodeword(p, grid, m0, r % 3, [s])?.score ?? -1));
    if (v > bestScore) {
      bestScore = v;
      best = s;
    }
  }
  return best;
}
/** Rows either side whose match scores decide a codeword's shift (a codeword column bends smoothly). */
const BAND = 2;

/**
 * Every codeword of every row, each read at its own shift along the row: the quadratic through
 * the codeword boundaries leaves a lens-bent symbol's columns off by up to a module or more, by
 * an amount that changes smoothly from column to column and slowly down the rows. For each
 * codeword the shift is the one whose best match, summed over the rows within BAND of it in
 * the same column, is highest: a wrong shift still matches some pattern in one row, not in five.
 */
export function readAligned(profiles: readonly Float64Array[], grid: Grid): (Read | null)[] {
  return readAlignedAt((r) => profiles[r]!, profiles.length, grid);
}

/** readAligned with each codeword's own profile: `profile(r, j)` for row r, codeword column j. */
export function readAlignedAt(profile: (r: number, j: number) => Float64Array, rows: number, grid: Grid): (Read | null)[] {
  const c = grid.columns;
  const scores = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: c }, (_, j) => ALIGN.map((s) => readCodeword(profile(r, j), grid, 17 + 17 * (j + 1), r % 3, [s])?.score ?? -1)),
  );
  return Array.from({ length: rows }, (_, r) => r).flatMap((r) =>
    Array.from({ length: c }, (_, j) => {
      const p = profile(r, j);
      let best = 0;
      let bestScore = -Infinity;
      for (let k = 0; k < ALIGN.length; k++) {
        let v = 0;
        for (let q = Math.max(0, r - BAND); q <= Math.min(rows - 1, r + BAND); q++) v += scores[q]![j]![k]!;
        if (v > bestScore) {
          bestScore = v;
          best = k;
        }
      }
      const s = ALIGN[best]!;
      return readCodeword(p, grid, 17 + 17 * (j + 1), r % 3, [s - 0.125, s, s + 0.125]);
    }),
  );
}
