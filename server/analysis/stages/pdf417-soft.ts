/**
 * A soft PDF417 codeword reader for symbols zxing locates but cannot decode (issue 20): blur
 * and small modules merge narrow bars, and zxing decides each bar's width before it looks the
 * codeword up, so one merged pair loses the codeword. Here the symbol, straightened along its
 * own edges (barcode-fit.ts), is read on a module grid: every codeword boundary is a space
 * followed by a bar in every row, so the profile averaged down the rows marks the column
 * boundaries; the row indicators name each scanline's row, which places the rows; each row's
 * middle is compared in grey with the 929 patterns of its cluster (row mod 3,
 * pdf417-patterns.ts) blurred as much as the start and stop patterns are; the codewords whose
 * best match is not clearly ahead of the next are erasures for Reed-Solomon (pdf417-rs.ts), and
 * the corrected codewords go to text (pdf417-text.ts). Strict: the correction keeps a quarter
 * of the error-correction codewords unspent, the row indicators must agree with the grid, the
 * length descriptor must match, and the caller still requires a valid AAMVA record.
 */
import type { GreyPlane } from '../raster.js';
import { straighten, type SymbolFit } from './barcode-fit.js';
import { PDF417_PATTERNS } from './pdf417-patterns.js';
import { correctErasures } from './pdf417-rs.js';
import { codewordsToText } from './pdf417-text.js';

/** Modules of the start pattern (8 1 1 1 1 1 1 3) and of the stop pattern (7 1 1 3 1 1 1 2 1). */
const START = [8, 1, 1, 1, 1, 1, 1, 3];
const STOP = [7, 1, 1, 3, 1, 1, 1, 2, 1];
/** Blur widths tried, in modules (Gaussian σ). */
const SIGMAS = [0.35, 0.5, 0.65, 0.8, 1.0];
/** Quiet zone of the straightened plane, as a share of the symbol's length. */
const MARGIN = 0.04;

/** Bits (1 = bar) of a run-length pattern starting with a bar. */
function runsToBits(runs: readonly number[]): number[] {
  return runs.flatMap((w, i) => new Array<number>(w).fill(i % 2 === 0 ? 1 : 0));
}

/** Darkness of each module under a Gaussian of `sigma` modules, with `left` / `right` (0 space, 1 bar) beyond. */
function blurModules(bits: readonly number[], sigma: number, left: number, right: number): Float64Array {
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
function normalise(v: ArrayLike<number>): Float64Array | null {
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

const dot = (a: Float64Array, b: Float64Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** Normalised blurred templates per σ and cluster: a codeword follows a space and precedes a bar. */
const templates = new Map<number, Float64Array[][]>();
function templatesFor(sigma: number): Float64Array[][] {
  let t = templates.get(sigma);
  if (!t) {
    t = PDF417_PATTERNS.map((cluster) =>
      cluster.map((p) =>
        normalise(
          blurModules(
            Array.from({ length: 17 }, (_, i) => (p >> (16 - i)) & 1),
            sigma,
            0,
            1,
          ),
        )!,
      ),
    );
    templates.set(sigma, t);
  }
  return t;
}

/** Mean of a profile over [a, b) in fractional pixels. */
function spanMean(p: Float64Array, a: number, b: number): number {
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
function bandProfile(g: GreyPlane, top: (x: number) => number, bottom: (x: number) => number): Float64Array {
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
interface Grid {
  readonly columns: number;
  readonly sigma: number;
  readonly at: (m: number) => number;
}

function moduleVector(p: Float64Array, at: (m: number) => number, m0: number, len: number, shift = 0): Float64Array {
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
 * rows' scale).
 */
function findGrid(avg: Float64Array, x0: number, x1: number): Grid | null {
  let best: { c: number; sigma: number; score: number; x0: number; mod: number } | null = null;
  const startBits = runsToBits(START);
  const stopBits = runsToBits(STOP);
  for (const sigma of SIGMAS) {
    const ts = normalise(blurModules(startBits, sigma, 0, 1))!;
    const tp = normalise(blurModules(stopBits, sigma, 1, 0))!;
    for (let c = 1; c <= 30; c++) {
      const total = 17 * c + 69;
      const mod0 = (x1 - x0) / total;
      if (mod0 < 1.2) break;
      // The fitted ends can be off by a module: the left end and the module size are searched.
      for (let dx = -1; dx <= 1; dx += 0.25) {
        for (let k = -2; k <= 2; k++) {
          const mod = mod0 * (1 + k * 0.004);
          const left = x0 + dx * mod0;
          const at = (m: number): number => left + m * mod;
          const vs = normalise(moduleVector(avg, at, 0, 17));
          const vp = normalise(moduleVector(avg, at, total - 18, 18));
          if (!vs || !vp) continue;
          const score = dot(vs, ts) + dot(vp, tp);
          if (!best || score > best.score) best = { c, sigma, score, x0: left, mod };
        }
      }
    }
  }
  if (!best || best.score < 1.6) return null;
  const { c, x0: left, mod } = best;
  const ms: number[] = [];
  const xs: number[] = [];
  for (let b = 0; b <= c + 2; b++) {
    const m = 17 + 17 * b;
    const guess = left + m * mod;
    let bx = guess;
    let bestStep = -Infinity;
    for (let d = -0.8 * mod; d <= 0.8 * mod; d += mod / 8) {
      const step = spanMean(avg, guess + d, guess + d + mod) - spanMean(avg, guess + d - mod, guess + d);
      if (step > bestStep) {
        bestStep = step;
        bx = guess + d;
      }
    }
    ms.push(m);
    xs.push(bx);
  }
  const q = quadFit(ms, xs, left, mod);
  return { columns: c, sigma: best.sigma, at: (m: number) => q[0] * m * m + q[1] * m + q[2] };
}

/** One codeword read: the best value, its correlation, and how far ahead of the runner-up. */
interface Read {
  readonly value: number;
  readonly score: number;
  readonly margin: number;
}

function readCodeword(p: Float64Array, grid: Grid, m0: number, cluster: number, shifts: readonly number[] = [-0.3, 0, 0.3]): Read | null {
  const ts = templatesFor(grid.sigma)[cluster]!;
  let best = -2;
  let second = -2;
  let value = -1;
  // A third of a module either way: what the quadratic grid leaves of the lens and the fit.
  for (const shift of shifts) {
    const v = normalise(moduleVector(p, grid.at, m0, 17, shift));
    if (!v) continue;
    for (let k = 0; k < ts.length; k++) {
      const s = dot(v, ts[k]!);
      if (s > best) {
        if (k !== value) second = best;
        best = s;
        value = k;
      } else if (s > second && k !== value) second = s;
    }
  }
  return value < 0 ? null : { value, score: best, margin: best - second };
}

/** Best match over the three clusters: the row a row-indicator read puts a scanline in. */
function indicatorRow(p: Float64Array, grid: Grid, m0: number): { row: number; low: number; cluster: number; margin: number } | null {
  let best: { row: number; low: number; cluster: number; score: number } | null = null;
  let second = -2;
  for (let k = 0; k < 3; k++) {
    const rd = readCodeword(p, grid, m0, k, [0]);
    if (!rd) continue;
    if (!best || rd.score > best.score) {
      second = Math.max(second, best?.score ?? -2, rd.score - rd.margin);
      best = { row: 3 * Math.floor(rd.value / 30) + k, low: rd.value % 30, cluster: k, score: rd.score };
    } else second = Math.max(second, rd.score);
  }
  return best && { row: best.row, low: best.low, cluster: best.cluster, margin: best.score - second };
}

/**
 * Rows' positions at each end, y = a + b t (t the row): the median of the slopes between the
 * side's points (Theil-Sen) and of their intercepts, then least squares on the points within a
 * third of a row of that line (misread rows left out). Each end has its own line: the fitted
 * edges the plane was straightened on can be off by a row or more at one end.
 */
function rowLine(t: readonly number[], y: readonly number[]): { a: number; b: number; n: number } | null {
  const slopes: number[] = [];
  const step = Math.max(1, Math.floor(t.length / 80));
  for (let i = 0; i < t.length; i += step) for (let j = i + 1; j < t.length; j += step) if (t[j] !== t[i]) slopes.push((y[j]! - y[i]!) / (t[j]! - t[i]!));
  if (slopes.length < 10) return null;
  slopes.sort((u, v) => u - v);
  const b = slopes[Math.floor(slopes.length / 2)]!;
  if (!(b > 0)) return null;
  const as = t.map((ti, i) => y[i]! - b * ti).sort((u, v) => u - v);
  const a = as[Math.floor(as.length / 2)]!;
  const keep = t.map((_, i) => i).filter((i) => Math.abs(y[i]! - a - b * t[i]!) < b / 3);
  if (keep.length < 8) return null;
  const mt = keep.reduce((s, i) => s + t[i]!, 0) / keep.length;
  const my = keep.reduce((s, i) => s + y[i]!, 0) / keep.length;
  let sxx = 0;
  let sxy = 0;
  for (const i of keep) {
    sxx += (t[i]! - mt) ** 2;
    sxy += (t[i]! - mt) * (y[i]! - my);
  }
  const pitch = sxx > 0 ? sxy / sxx : b;
  return { a: my - pitch * mt, b: pitch, n: keep.length };
}

/**
 * Reads the codewords of a fitted PDF417 symbol and decodes them; null unless the row
 * indicators agree with the grid, Reed-Solomon corrects the word with margin to spare, and the
 * data decode.
 */
export function softDecodePdf417(g: GreyPlane, fit: SymbolFit, scale = 3): string | null {
  const plane = straighten(g, fit, scale, MARGIN);
  if (!plane) return null;
  const { width, height } = plane;
  // straighten() puts the symbol's ends MARGIN of its length in from the plane's sides, and its
  // edges as many pixels in from the top and bottom (a quarter of the height at most).
  const x0 = (MARGIN / (1 + 2 * MARGIN)) * width;
  const x1 = ((1 + MARGIN) / (1 + 2 * MARGIN)) * width;
  const marginPx = MARGIN * (x1 - x0);
  const y0 = 4 * marginPx < height ? marginPx : height / 4;
  const y1 = height - y0;
  const avg = bandProfile(
    plane,
    () => y0 + (y1 - y0) * 0.05,
    () => y1 - (y1 - y0) * 0.05,
  );
  const grid = findGrid(avg, x0, x1);
  if (!grid) return null;
  const c = grid.columns;
  const ends = [17, 17 + 17 * (c + 1)] as const;
  // Scanlines (three pixels averaged) down both row indicators: each names its row.
  const found = [
    { t: [] as number[], y: [] as number[] },
    { t: [] as number[], y: [] as number[] },
  ];
  const votes = new Map<string, number>();
  const vote = (key: string, w: number): void => void votes.set(key, (votes.get(key) ?? 0) + w);
  const span = y1 - y0;
  for (let y = Math.max(1, Math.floor(y0 - span * 0.05)); y < Math.min(height - 2, y1 + span * 0.05); y++) {
    const p = bandProfile(
      plane,
      () => y - 1,
      () => y + 2,
    );
    for (const side of [0, 1] as const) {
      const rd = indicatorRow(p, grid, ends[side]);
      if (!rd || rd.margin < 0.03) continue;
      found[side]!.t.push(rd.row + 0.5);
      found[side]!.y.push(y + 0.5);
      // Left: cluster 0 says rows/3, 1 the level and rows mod 3, 2 the columns; the right rotates them.
      const what = (rd.cluster + (side === 1 ? 2 : 0)) % 3;
      vote(what === 0 ? `r3:${rd.low}` : what === 1 ? `lv:${rd.low}` : `c:${rd.low + 1}`, rd.margin);
    }
  }
  const top = (prefix: string): number | null => {
    const xs = [...votes].filter(([k]) => k.startsWith(prefix)).sort((a, b) => b[1] - a[1]);
    return xs.length ? Number(xs[0]![0].slice(prefix.length)) : null;
  };
  const r3 = top('r3:');
  const lv = top('lv:');
  if (r3 === null || lv === null || top('c:') !== c) return null;
  const rows = r3 * 3 + (lv % 3) + 1;
  const level = Math.floor(lv / 3);
  const fitted = found.map((f) => rowLine(f.t, f.y));
  const lines = fitted[0] || fitted[1] ? ([fitted[0] ?? fitted[1]!, fitted[1] ?? fitted[0]!] as const) : null;
  if (!lines) return null;
  const [l, r] = lines;
  const xl = grid.at(ends[0] + 8.5);
  const xr = grid.at(ends[1] + 8.5);
  // Inside the symbol the rows can bend away from the straight line between its ends (the
  // edges it was straightened on are fitted, not known): at a third and two thirds of its
  // width, each scanline's best cluster (row mod 3) names its row next to where the ends put it.
  const anchors: { x: number; a: number; b: number }[] = [{ x: xl, ...l }];
  for (const j of [Math.ceil(c / 3), Math.ceil((2 * c) / 3)]) {
    if (j < 1 || j > c) continue;
    const m0 = 17 + 17 * j;
    const x = grid.at(m0 + 8.5);
    const f = (x - xl) / (xr - xl);
    const a = l.a * (1 - f) + r.a * f;
    const b = l.b * (1 - f) + r.b * f;
    const t: number[] = [];
    const ys: number[] = [];
    for (let y = Math.max(1, Math.floor(a)); y < Math.min(height - 2, a + b * rows); y += 2) {
      const p = bandProfile(
        plane,
        () => y - 1,
        () => y + 2,
      );
      let best = -2;
      let second = -2;
      let k = -1;
      for (let q = 0; q < 3; q++) {
        const rd = readCodeword(p, grid, m0, q, [0]);
        if (!rd) continue;
        if (rd.score > best) {
          second = Math.max(best, rd.score - rd.margin);
          best = rd.score;
          k = q;
        } else second = Math.max(second, rd.score);
      }
      if (k < 0 || best - second < 0.03) continue;
      const predicted = (y + 0.5 - a) / b - 0.5;
      // Of the three rows round the predicted one, exactly one has this cluster.
      const base = Math.round(predicted);
      const row = [base - 1, base, base + 1].find((x) => ((x % 3) + 3) % 3 === k)!;
      if (row < 0 || row >= rows) continue;
      t.push(row + 0.5);
      ys.push(y + 0.5);
    }
    const line = rowLine(t, ys);
    if (line && Math.abs(line.b - b) < 0.15 * b) anchors.push({ x, a: line.a, b: line.b });
  }
  anchors.push({ x: xr, ...r });
  const yAt = (row: number, x: number): number => {
    let i = 0;
    while (i < anchors.length - 2 && x > anchors[i + 1]!.x) i++;
    const p = anchors[i]!;
    const q = anchors[i + 1]!;
    const f = (x - p.x) / (q.x - p.x);
    return (p.a + p.b * row) * (1 - f) + (q.a + q.b * row) * f;
  };
  // Each row's middle half: the blur mixes rows nearest their edges.
  const profiles = Array.from({ length: rows }, (_, row) =>
    bandProfile(
      plane,
      (x) => yAt(row + 0.25, x),
      (x) => yAt(row + 0.75, x),
    ),
  );
  return readData(profiles, grid, level);
}

function readData(profiles: readonly Float64Array[], grid: Grid, level: number): string | null {
  const c = grid.columns;
  const rows = profiles.length;
  const k = 2 ** (level + 1);
  const n = rows * c;
  if (k >= n) return null;
  const reads = profiles.flatMap((p, r) => Array.from({ length: c }, (_, j) => readCodeword(p, grid, 17 + 17 * (j + 1), r % 3)));
  const word = reads.map((rd) => rd?.value ?? 0);
  // A quarter of the error-correction codewords (at least 4) stays unspent: a word that needs
  // them all could have been corrected into another valid word.
  const margin = Math.max(4, Math.ceil(k / 4));
  const order = reads.map((rd, i) => [rd ? rd.margin : -1, i] as const).sort((a, b) => a[0] - b[0]);
  for (let e = 0; e <= k - margin; e += Math.max(1, Math.floor(k / 16))) {
    const fixed = correctErasures(
      word,
      k,
      order.slice(0, e).map(([, i]) => i),
      margin,
    );
    if (!fixed) continue;
    const data = fixed.word.slice(0, n - k);
    return data[0] === n - k ? codewordsToText(data) : null;
  }
  return null;
}
