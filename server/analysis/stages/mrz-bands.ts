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

/** Degrees either side of the skew estimate the levelling search turns the page. */
const LEVEL_REACH = 6;

/**
 * The page turned so that its text rows are as level as they go: of the turns within
 * {@link LEVEL_REACH} degrees of `skew` (whole degrees), the one whose rows' edge coverage is most
 * concentrated (the sum of its squares: a level line fills a few rows, a tilted one smears over
 * many). The skew estimate can be degrees off on a passport whose guilloche and portrait carry
 * most of the page's edges (development `wide` 1: 3 degrees, and no row then held a line).
 * `turn` is how far from the estimate it is, in degrees.
 */
export async function levelled(page: GreyPlane, skew: number): Promise<{ g: GreyPlane; turn: number }> {
  let best: { score: number; g: GreyPlane; turn: number } | null = null;
  for (let d = -LEVEL_REACH; d <= LEVEL_REACH; d++) {
    const g = await rotate(page, -skew + d);
    let score = 0;
    for (const c of rowCoverage(g, WEAK_EDGE)) score += c * c;
    if (!best || score > best.score) best = { score, g, turn: d };
  }
  return { g: best!.g, turn: best!.turn };
}

/** The page's text bands at the strong edge, or at the weak one when that finds fewer than two. */
export function bandsOf(g: GreyPlane): [number, number][] {
  const strong = textBands(g);
  return strong.length >= 2 ? strong : textBands(g, WEAK_EDGE);
}
