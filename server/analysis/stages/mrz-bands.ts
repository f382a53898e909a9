/**
 * The page's wide text rows, for the MRZ's last fallback (mrz.ts `readBandedMrz`): the page
 * turned level, then the rows whose edges run across much of its width, as bands.
 */
import { greyBuffer } from './mrz-ocr.js';
import type { GreyPlane } from '../raster.js';

/** Difference across a pixel (grey levels, on the stretched page) that counts as a glyph's edge. */
export const EDGE = 60;
/** The weaker edge tried when the strong one finds fewer than two rows: a blurred MRZ's strokes (development `wide` 12). */
export const WEAK_EDGE = 35;

/**
 * Each row's longest run of blocks holding an edge over `edge`, allowing one-block gaps (spaces
 * between words), as a share of the width.
 */
function rowCoverage(g: GreyPlane, edge: number): Float32Array {
  const { data, width, height } = g;
  const block = Math.max(8, Math.round(width / 120));
  const blocks = Math.ceil(width / block);
  const coverage = new Float32Array(height);
  const hit = new Uint8Array(blocks);
  for (let y = 0; y < height; y++) {
    hit.fill(0);
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      if (Math.abs(data[row + x + 1]! - data[row + x - 1]!) > edge) hit[Math.floor(x / block)] = 1;
    }
    let bestRun = 0;
    let run = 0;
    let gap = 0;
    for (let b = 0; b < blocks; b++) {
      if (hit[b]) {
        run += 1 + gap;
        gap = 0;
      } else if (run > 0 && gap < 1) {
        gap++;
      } else {
        run = 0;
        gap = 0;
      }
      bestRun = Math.max(bestRun, run);
    }
    coverage[y] = bestRun / blocks;
  }
  return coverage;
}

/** Rows of the image that hold wide lines of text, as [top, bottom] bands, top to bottom. */
export function textBands(g: GreyPlane, edge = EDGE): [number, number][] {
  const coverage = rowCoverage(g, edge);
  const bands: [number, number][] = [];
  let start = -1;
  for (let y = 0; y <= g.height; y++) {
    const on = y < g.height && coverage[y]! >= 0.42;
    if (on && start < 0) start = y;
    if (!on && start >= 0) {
      if (y - start >= Math.max(6, g.height * 0.008)) bands.push([start, y]);
      start = -1;
    }
  }
  return bands;
}

export async function rotate(g: GreyPlane, angle: number): Promise<GreyPlane> {
  if (Math.abs(angle) < 0.3) return g;
  const { data, info } = await (
    await greyBuffer(g)
  )
    .rotate(angle, { background: { r: 255, g: 255, b: 255 } })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Degrees either way the rows' slope is searched: beyond the 8-12 degrees a hand-held page is turned. */
const SLOPE_REACH = 15;
/** Edges projected per angle, at most (about). */
const MAX_POINTS = 40_000;

/**
 * The slope of the page's text rows, in degrees (positive: rows fall to the right), by projection
 * profiles: the glyphs' vertical edges projected across the page at each angle, and the angle
 * whose profile is most concentrated (the sum of its squared counts: a level line of text fills a
 * few rows, a tilted one smears over many) kept; searched every half degree within
 * {@link SLOPE_REACH}, then every tenth of a degree around the best. The gradient-angle estimate
 * (barcode.ts `estimateSkew`) answers for every edge on the page, and on a passport whose
 * guilloche, portrait, finger and background carry most of them it was 3 to 5 degrees off its
 * MRZ (development `wide` 1, 14, 21, 23); the rows' profile follows the lines to 0.4 degrees there.
 * The edges are taken on the page smoothed 3 × 3: on a dim, noisy page (development `hard` 1, 2,
 * 4) the noise's own edges, one pixel row each, made the level profile (0°) the most
 * concentrated whatever the lines' slope.
 */
export function rowsSlope(g: GreyPlane): number {
  const { xs, ys, stride } = edgePoints(g);
  // Bins as tall as the rows sampled are apart: finer bins would leave every other one empty at 0°.
  const reach = Math.ceil(Math.hypot(g.width, g.height) / stride);
  const profile = new Float64Array(2 * reach + 2);
  // Up to ~MAX_POINTS edges: a noisy page holds hundreds of thousands, and a line's edges are
  // still thousands after thinning.
  const every = Math.max(1, Math.round(xs.length / MAX_POINTS));
  const concentration = (degrees: number): number => {
    const t = (degrees * Math.PI) / 180;
    const [c, s] = [Math.cos(t) / stride, Math.sin(t) / stride];
    profile.fill(0);
    for (let i = 0; i < xs.length; i += every) profile[(ys[i]! * c - xs[i]! * s + reach + 0.5) | 0]! += 1;
    let sum = 0;
    for (const v of profile) sum += v * v;
    return sum;
  };
  const best = (from: number, to: number, step: number): number => {
    let at = from;
    let top = -1;
    for (let k = 0; from + k * step <= to + 1e-9; k++) {
      const score = concentration(from + k * step);
      if (score > top) [top, at] = [score, from + k * step];
    }
    return at;
  };
  const coarse = best(-SLOPE_REACH, SLOPE_REACH, 0.5);
  return Math.round(best(coarse - 0.4, coarse + 0.4, 0.1) * 10) / 10;
}

/**
 * Where the page smoothed 3 × 3 changes by more than {@link WEAK_EDGE} across a pixel: every row,
 * or every other on a page over 1050 rows (a line's strokes cross several).
 */
function edgePoints(g: GreyPlane): { xs: Int32Array; ys: Int32Array; stride: number } {
  const { data, width, height } = g;
  const stride = Math.max(1, Math.round(height / 700));
  // Three-pixel sums across, then down: the 3 × 3 sum, nine times the mean.
  const across = new Uint16Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) across[i] = data[i - 1]! + data[i]! + data[i + 1]!;
  }
  const xs: number[] = [];
  const ys: number[] = [];
  const sum = (i: number): number => across[i - width]! + across[i]! + across[i + width]!;
  for (let y = 1; y < height - 1; y += stride) {
    for (let x = 3, i = y * width + 3; x < width - 3; x++, i++) {
      if (Math.abs(sum(i + 1) - sum(i - 1)) > WEAK_EDGE * 9) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  return { xs: Int32Array.from(xs), ys: Int32Array.from(ys), stride };
}

/**
 * The page turned so that its text rows are level ({@link rowsSlope}). `turn` is how far that is
 * from the skew estimate `skew`, in degrees (under 0.3: the page as the estimate turned it).
 */
export async function levelled(page: GreyPlane, skew: number): Promise<{ g: GreyPlane; turn: number }> {
  const slope = rowsSlope(page);
  return { g: await rotate(page, -slope), turn: slope - skew };
}

/** The page's text bands at the strong edge, or at the weak one when that finds fewer than two. */
export function bandsOf(g: GreyPlane): [number, number][] {
  const strong = textBands(g);
  return strong.length >= 2 ? strong : textBands(g, WEAK_EDGE);
}
