/**
 * Fits a located PDF417 symbol's own edges and straightens it along them (issue 20). The
 * locator's box hugs 8 px blocks and is a rectangle, while the symbol on a phone photo is
 * bent by the lens and foreshortened by the angle: rectified through that box, its rows lean
 * and curve by a module or more from end to end, and zxing, which follows each row across 17
 * modules per codeword, loses them. Here the symbol's top and bottom edges are measured along
 * its length and fitted with quadratics (a lens bends a straight edge into a near-parabola),
 * its left and right ends (the start and stop patterns, the same in every row) found on the
 * profile averaged down the rows, and the strip between them resampled with its rows level.
 */
import type { GreyPlane } from '../raster.js';
import { growQuad, rectToQuad, distance, sampleBicubic, type Point, type Quad } from '../warp.js';

/** The symbol as measured in the rough rectification: edges as functions of position. */
export interface SymbolFit {
  /** Homography from rough-plane coordinates to the photo. */
  readonly h: readonly number[];
  /** Quadratic coefficients [a, b, c] of the top and bottom edges: y = a x² + b x + c. */
  readonly top: readonly [number, number, number];
  readonly bottom: readonly [number, number, number];
  /** Left and right ends as lines x = p y + q. */
  readonly left: readonly [number, number];
  readonly right: readonly [number, number];
}

/** Rough plane resolution relative to the photo. */
const ROUGH = 2;

const poly = (c: readonly [number, number, number], x: number): number => c[0] * x * x + c[1] * x + c[2];

/** Least-squares fit of y = a x² + b x + c (or a line when `quadratic` is false). */
function fitPoly(xs: readonly number[], ys: readonly number[], quadratic: boolean): [number, number, number] | null {
  const n = xs.length;
  if (n < (quadratic ? 4 : 2)) return null;
  // Normal equations on x centred and scaled, for conditioning.
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const sx = Math.max(1, Math.sqrt(xs.reduce((s, x) => s + (x - mx) ** 2, 0) / n));
  const t = xs.map((x) => (x - mx) / sx);
  const k = quadratic ? 3 : 2;
  const a = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  for (let i = 0; i < n; i++) {
    const row = quadratic ? [t[i]! * t[i]!, t[i]!, 1] : [t[i]!, 1];
    for (let r = 0; r < k; r++) {
      for (let c = 0; c < k; c++) a[r]![c]! += row[r]! * row[c]!;
      a[r]![k]! += row[r]! * ys[i]!;
    }
  }
  for (let col = 0; col < k; col++) {
    let p = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[p]![col]!)) p = r;
    if (Math.abs(a[p]![col]!) < 1e-9) return null;
    [a[col], a[p]] = [a[p]!, a[col]!];
    for (let r = 0; r < k; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / a[col]![col]!;
      for (let c = col; c <= k; c++) a[r]![c]! -= f * a[col]![c]!;
    }
  }
  const sol = a.map((row, i) => row[k]! / row[i]!);
  const [qa, qb, qc] = quadratic ? sol : [0, sol[0]!, sol[1]!];
  // Back from t = (x − mx) / sx to x.
  const A = qa! / (sx * sx);
  const B = qb! / sx - (2 * qa! * mx) / (sx * sx);
  const C = (qa! * mx * mx) / (sx * sx) - (qb! * mx) / sx + qc!;
  return [A, B, C];
}

/** Fit, drop the points more than `tol` off it, fit again. */
function robustFit(xs: number[], ys: number[], quadratic: boolean, tol: number): [number, number, number] | null {
  const first = fitPoly(xs, ys, quadratic);
  if (!first) return null;
  const keep = xs.map((x, i) => Math.abs(poly(first, x) - ys[i]!) <= tol);
  const kx = xs.filter((_, i) => keep[i]);
  const ky = ys.filter((_, i) => keep[i]);
  return kx.length >= xs.length / 2 ? (fitPoly(kx, ky, quadratic) ?? first) : first;
}

function bilinear(g: GreyPlane, x: number, y: number): number {
  const { data, width, height } = g;
  if (x < 0 || y < 0 || x > width - 1 || y > height - 1) return 255;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = x - x0;
  const fy = y - y0;
  const i0 = y0 * width;
  const i1 = y1 * width;
  return (data[i0 + x0]! * (1 - fx) + data[i0 + x1]! * fx) * (1 - fy) + (data[i1 + x0]! * (1 - fx) + data[i1 + x1]! * fx) * fy;
}

const apply = (h: readonly number[], x: number, y: number): Point => {
  const d = h[6]! * x + h[7]! * y + h[8]!;
  return { x: (h[0]! * x + h[1]! * y + h[2]!) / d, y: (h[3]! * x + h[4]! * y + h[5]!) / d };
};

/** The rough plane: the located box, grown well past the symbol, sampled at {@link ROUGH}× the photo. */
function roughPlane(g: GreyPlane, quad: Quad): { plane: GreyPlane; h: number[] } | null {
  const grown = growQuad(quad, 0.06, 0.5);
  const w = Math.round(distance(grown[0], grown[1]) * ROUGH);
  const hgt = Math.round(distance(grown[0], grown[3]) * ROUGH);
  if (w < 40 || hgt < 20 || w * hgt > 12e6) return null;
  const h = rectToQuad(w, hgt, grown);
  if (!h) return null;
  const data = new Uint8Array(w * hgt);
  for (let y = 0; y < hgt; y++) {
    for (let x = 0; x < w; x++) {
      const p = apply(h, x + 0.5, y + 0.5);
      data[y * w + x] = Math.round(bilinear(g, p.x - 0.5, p.y - 0.5));
    }
  }
  return { plane: { data, width: w, height: hgt }, h };
}

/** Where a profile falling from `from` towards `step`'s direction first crosses `thr` (sub-sample). */
function crossing(p: Float64Array, from: number, step: 1 | -1, thr: number): number | null {
  for (let i = from; i + step >= 0 && i + step < p.length; i += step) {
    const a = p[i]!;
    const b = p[i + step]!;
    if (a >= thr && b < thr) return i + (step * (a - thr)) / Math.max(1e-6, a - b);
  }
  return null;
}

/**
 * How the edges are measured: each top/bottom sample averages `window` bands' widths of the
 * symbol round its band, and each end is where the profile down the rows first passes `endShare`
 * of the way from paper to ink.
 */
export interface FitOptions {
  readonly window: number;
  readonly endShare: number;
}

const FIRST_FIT: FitOptions = { window: 1, endShare: 0.4 };

/**
 * The fit tried again when the first decodes nothing (barcode.ts). In a dim, blurred capture one
 * band's row can be nearly white (its 13 or so modules all spaces), its darkness under half the
 * symbol's, so the edge was taken there, rows inside (development `harsh` 0, 7: the edges
 * bowed two rows into the symbol); over three bands' widths no row is that light. A bright
 * capture greys the stop pattern's thin last bars below 0.4 of the ink (the same backs: the
 * right end put on its thick bar, ten modules in); at 0.25 they count.
 */
export const CAREFUL_FIT: FitOptions = { window: 3, endShare: 0.25 };

/** Measures the symbol's edges in the rough plane; null when they cannot be told from the paper. */
function measure(r: GreyPlane, opts: FitOptions): Omit<SymbolFit, 'h'> | null {
  const { data, width, height } = r;
  const dark = (x: number, y: number): number => 255 - data[y * width + x]!;
  // Top and bottom: per column band, the darkness profile down the plane; the symbol is the
  // run round the middle row darker than half-way between paper and symbol.
  const bands = 24;
  const x0 = Math.round(width * 0.08);
  const x1 = Math.round(width * 0.92);
  const bw = (x1 - x0) / bands;
  const xs: number[] = [];
  const tops: number[] = [];
  const bottoms: number[] = [];
  const mid = Math.round(height / 2);
  for (let b = 0; b < bands; b++) {
    const a = Math.max(0, Math.round(x0 + (b + 0.5 - opts.window / 2) * bw));
    const e = Math.min(width, Math.round(x0 + (b + 0.5 + opts.window / 2) * bw));
    const p = new Float64Array(height);
    for (let y = 0; y < height; y++) {
      let s = 0;
      for (let x = a; x < e; x++) s += dark(x, y);
      p[y] = s / Math.max(1, e - a);
    }
    const inside = [...p.subarray(Math.round(height * 0.4), Math.round(height * 0.6))].sort((u, v) => u - v);
    const level = inside[Math.floor(inside.length / 2)]!;
    const paper = Math.min(...p.subarray(0, Math.round(height * 0.15)), ...p.subarray(Math.round(height * 0.85)));
    if (level - paper < 25) continue;
    const thr = (level + paper) / 2;
    const t = crossing(p, mid, -1, thr);
    const d = crossing(p, mid, 1, thr);
    if (t === null || d === null) continue;
    xs.push((a + e) / 2);
    tops.push(t + 0.5);
    bottoms.push(d + 0.5);
  }
  if (xs.length < bands / 2) return null;
  const tol = Math.max(3, height * 0.03);
  const top = robustFit(xs, tops, true, tol);
  const bottom = robustFit(xs, bottoms, true, tol);
  if (!top || !bottom) return null;
  // Left and right: the column profile averaged down the symbol's middle (start and stop
  // patterns are the same in every row), in its upper and lower halves for the ends' slant.
  const ends = (from: number, to: number): { left: number; right: number; y: number } | null => {
    const q = new Float64Array(width);
    let ysum = 0;
    for (let x = 0; x < width; x++) {
      const yt = poly(top, x);
      const yb = poly(bottom, x);
      const ya = Math.max(0, Math.round(yt + (yb - yt) * from));
      const yz = Math.min(height - 1, Math.round(yt + (yb - yt) * to));
      let s = 0;
      for (let y = ya; y <= yz; y++) s += dark(x, y);
      q[x] = s / Math.max(1, yz - ya + 1);
      ysum += (ya + yz) / 2;
    }
    const sorted = [...q].sort((u, v) => u - v);
    const paper = sorted[Math.floor(sorted.length * 0.05)]!;
    const ink = sorted[Math.floor(sorted.length * 0.98)]!;
    if (ink - paper < 40) return null;
    const thr = paper + (ink - paper) * opts.endShare;
    let left = -1;
    for (let x = 1; x < width && left < 0; x++) if (q[x]! >= thr && q[x - 1]! < thr) left = x - 1 + (thr - q[x - 1]!) / Math.max(1e-6, q[x]! - q[x - 1]!);
    let right = -1;
    for (let x = width - 2; x >= 0 && right < 0; x--)
      if (q[x]! >= thr && q[x + 1]! < thr) right = x + 1 - (thr - q[x + 1]!) / Math.max(1e-6, q[x]! - q[x + 1]!);
    return left >= 0 && right > left + width * 0.3 ? { left, right, y: ysum / width } : null;
  };
  const upper = ends(0.1, 0.45);
  const lower = ends(0.55, 0.9);
  if (!upper || !lower || Math.abs(lower.y - upper.y) < 2) return null;
  const line = (a: number, b: number): [number, number] => {
    const p = (b - a) / (lower.y - upper.y);
    return [p, a - p * upper.y];
  };
  return { top, bottom, left: line(upper.left, lower.left), right: line(upper.right, lower.right) };
}

/**
 * The symbol's fitted edges in the photo, or null when they cannot be measured (the locator's
 * box is not a barcode, or its edges are lost in the blur).
 */
export function fitSymbol(g: GreyPlane, quad: Quad, opts: FitOptions = FIRST_FIT): SymbolFit | null {
  const rough = roughPlane(g, quad);
  if (!rough) return null;
  const m = measure(rough.plane, opts);
  return m ? { ...m, h: rough.h } : null;
}

/** The symbol's corners in the rough plane: where its ends (lines x = p y + q) meet its edges (curves y(x)). */
function corners(f: SymbolFit): { tl: Point; tr: Point; bl: Point; br: Point } {
  const endAt = (line: readonly [number, number], curve: readonly [number, number, number]): Point => {
    let y = poly(curve, line[1]);
    for (let i = 0; i < 6; i++) y = poly(curve, line[0] * y + line[1]);
    return { x: line[0] * y + line[1], y };
  };
  return { tl: endAt(f.left, f.top), tr: endAt(f.right, f.top), bl: endAt(f.left, f.bottom), br: endAt(f.right, f.bottom) };
}

/** Where the symbol's (u, v) lands in the photo: u along the rows (0 left end, 1 right), v across (0 top, 1 bottom). */
function patchPoint(f: SymbolFit, c: ReturnType<typeof corners>, u: number, v: number): Point {
  const xt = c.tl.x + (c.tr.x - c.tl.x) * u;
  const xb = c.bl.x + (c.br.x - c.bl.x) * u;
  const yt = poly(f.top, xt);
  const yb = poly(f.bottom, xb);
  return apply(f.h, xt + (xb - xt) * v, yt + (yb - yt) * v);
}

/**
 * The symbol resampled with its rows level: `scale` output pixels per photo pixel along the
 * rows, a quiet zone of `margin` of its length at each end and of its height above and below.
 */
export function straighten(g: GreyPlane, f: SymbolFit, scale: number, margin = 0.04): GreyPlane | null {
  const k = corners(f);
  const a = patchPoint(f, k, 0, 0.5);
  const b = patchPoint(f, k, 1, 0.5);
  const c = patchPoint(f, k, 0.5, 0);
  const d = patchPoint(f, k, 0.5, 1);
  const long = distance(a, b);
  const short = distance(c, d);
  if (!(long > 20 && short > 4 && long > short)) return null;
  const mv = Math.min(0.5, (margin * long) / short);
  const width = Math.round(long * scale * (1 + 2 * margin));
  const height = Math.round(short * scale * (1 + 2 * mv));
  if (width * height > 8e6) return null;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const v = ((y + 0.5) / height) * (1 + 2 * mv) - mv;
    for (let x = 0; x < width; x++) {
      const p = patchPoint(f, k, ((x + 0.5) / width) * (1 + 2 * margin) - margin, v);
      out[y * width + x] = sampleBicubic(g, p.x, p.y);
    }
  }
  return { data: out, width, height };
}

/**
 * Sharpens along the rows only (an unsharp mask of a Gaussian of `sigma` px, gain `amount`): on
 * a straightened symbol the bars are vertical, so the blur that merges narrow bars and spaces
 * is undone across them without lifting the noise along them.
 */
export function sharpenRows(g: GreyPlane, sigma: number, amount: number): GreyPlane {
  const r = Math.ceil(sigma * 2.5);
  const w = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const sum = w.reduce((a, b) => a + b, 0);
  const k = w.map((v, i) => (-amount * v) / sum + (i === r ? 1 + amount : 0));
  const { data, width, height } = g;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let d = -r; d <= r; d++) s += k[d + r]! * data[row + Math.min(width - 1, Math.max(0, x + d))]!;
      out[row + x] = s < 0 ? 0 : s > 255 ? 255 : Math.round(s);
    }
  }
  return { data: out, width, height };
}

/** Averages `2r + 1` pixels down each column: along the bars of a straightened symbol, against noise. */
export function smoothColumns(g: GreyPlane, r: number): GreyPlane {
  const { data, width, height } = g;
  const out = new Uint8Array(data.length);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      let s = 0;
      let n = 0;
      for (let d = Math.max(0, y - r); d <= Math.min(height - 1, y + r); d++) {
        s += data[d * width + x]!;
        n++;
      }
      out[y * width + x] = Math.round(s / n);
    }
  }
  return { data: out, width, height };
}

/**
 * Whether a located block is a PDF417 and not text or a printed band: the start pattern opens
 * every row with an 8-module bar and the stop pattern closes it with a 7-module one, so averaged
 * down the rows one end at least stays solid ink over a run of columns as wide as that bar,
 * while the codewords between average to a mid grey. An MRZ or a text block averages grey at its ends too; a colour band is solid
 * throughout. Share of ink: 0 paper, 1 the darkest ink of the symbol.
 */
export function looksLikePdf417(g: GreyPlane, f: SymbolFit): boolean {
  const p = straighten(g, f, 1, 0.04);
  if (!p || p.width < 40) return false;
  const { data, width, height } = p;
  const sorted = Uint8Array.from(data).sort();
  const ink = sorted[Math.floor(sorted.length * 0.01)]!;
  const rows = [Math.round(height * 0.3), Math.round(height * 0.7)] as const;
  const margin = Math.max(1, Math.round(width * 0.02));
  const col = (x: number): number => {
    let s = 0;
    for (let y = rows[0]; y < rows[1]; y++) s += data[y * width + x]!;
    return s / Math.max(1, rows[1] - rows[0]);
  };
  const q = Array.from({ length: width }, (_, x) => col(x));
  const paper = Math.max(...q.slice(0, margin), ...q.slice(width - margin));
  if (paper - ink < 40) return false;
  const share = q.map((v) => (paper - v) / (paper - ink));
  // The longest run of solid columns in either end: the 8-module start bar is ~3 % of a
  // symbol's length (273 modules for 12 codeword columns), a letter's stroke a fraction of that.
  const end = Math.round(width * 0.15);
  const run = (xs: readonly number[]): number => {
    let best = 0;
    let cur = 0;
    for (const v of xs) {
      cur = v >= 0.7 ? cur + 1 : 0;
      best = Math.max(best, cur);
    }
    return best;
  };
  const solid = Math.max(run(share.slice(0, end)), run(share.slice(width - end))) / width;
  const middle = share.slice(Math.round(width * 0.2), Math.round(width * 0.8)).sort((a, b) => a - b);
  const mid = middle[Math.floor(middle.length / 2)]!;
  return solid >= 0.012 && mid >= 0.2 && mid <= 0.75;
}
