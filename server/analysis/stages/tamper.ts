/**
 * Block-noise inconsistency check for pasted regions. Every camera image carries sensor noise
 * of a roughly even level; a field pasted in from a clean source (typed text on a flat patch)
 * has far less. The image is cut into blocks; in flat blocks (little structure) the noise level
 * is estimated with Immerkær's operator, which cancels edges to first order. A connected group
 * of flat blocks whose noise is far below the image's typical level is reported as pasted.
 *
 * A group is reported only when it is also far cleaner than the flat blocks right round it and
 * holds some structure (the pasted text): JPEG at phone qualities (75-85) zeroes the noise of
 * smooth 8x8 blocks here and there on the desk and the paper, which made every clean white-stock
 * capture look "photoshopped" against the frame's median alone (issue 20). It must also be an
 * island: on plain card stock in a small, denoised upload much of the paper round any clean group
 * is as clean, and such a group is the stock, not a fill.
 *
 * Limits: phones that denoise heavily flatten the whole image (no contrast left to find), a
 * paste that was re-noised to match is not found, and neither is one on paper exposed to
 * saturation (blocks above 235 carry no noise to compare). The false-positive rate on the clean
 * generated set is printed by `npm run eval`.
 */
import type { GreyPlane } from '../raster.js';
import { growQuad, type Point } from '../warp.js';

export interface TamperRegion {
  /** [x, y, width, height] in the analysed image. */
  readonly box: readonly [number, number, number, number];
  /** Blocks in the region. */
  readonly blocks: number;
  /** Mean noise sigma in the region vs. the image's median. */
  readonly sigma: number;
  readonly imageSigma: number;
}

export interface TamperResult {
  readonly suspicious: boolean;
  readonly regions: readonly TamperRegion[];
  readonly imageSigma: number;
}

export const TAMPER_SETTINGS = {
  block: 8,
  /** A block is flat when its mean absolute gradient is below this. */
  maxFlatGradient: 6,
  /** Flat blocks whose sigma is below this fraction of the median are "too clean". */
  cleanRatio: 0.4,
  /** A too-clean region is reported only when its sigma is below this fraction of the flat blocks round it. */
  localCleanRatio: 0.12,
  /** …and when at least this share of the blocks in and round it hold structure (the pasted text). */
  minInkedShare: 0.04,
  /**
   * …and when at most this share of the plain flat blocks round it are too clean as well. A
   * pasted fill is an island in noisy paper (0-3 % of its surroundings clean on the pasted test
   * captures); plain card stock on a small denoised upload is clean all over, and the group is
   * just the part of it that happens to connect (32-50 % round the two patches called pasted on
   * development back 3 under the `small` stress, 685 px).
   */
  maxRingCleanShare: 0.25,
  /**
   * Minimum connected too-clean blocks to report. A pasted field's fill spans 14-29 blocks on
   * 720-1080 px captures; 6 JPEG-zeroed blocks of paper between an MRZ line and the page's edge
   * (development passport 10, JPEG 71) are not a field.
   */
  minBlocks: 8,
  /** The image must carry at least this much noise for the test to mean anything. */
  minImageSigma: 0.2,
} as const;

/** Analyses a grey plane (best at the camera's resolution, not downscaled much). */
export function detectPastedRegions(g: GreyPlane): TamperResult {
  const { data, width, height } = g;
  const B = TAMPER_SETTINGS.block;
  const bw = Math.floor((width - 2) / B);
  const bh = Math.floor((height - 2) / B);
  const sigma = new Float32Array(bw * bh).fill(-1);
  // Blocks with structure (text strokes, edges): a pasted field holds its new text.
  const inked = new Uint8Array(bw * bh);
  const flat: number[] = [];
  const c = Math.sqrt(Math.PI / 2) / 6;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let abs = 0;
      let grad = 0;
      let sum = 0;
      let n = 0;
      for (let y = by * B + 1; y < by * B + 1 + B; y++) {
        for (let x = bx * B + 1; x < bx * B + 1 + B; x++) {
          const i = y * width + x;
          const v =
            data[i - width - 1]! -
            2 * data[i - width]! +
            data[i - width + 1]! -
            2 * data[i - 1]! +
            4 * data[i]! -
            2 * data[i + 1]! +
            data[i + width - 1]! -
            2 * data[i + width]! +
            data[i + width + 1]!;
          abs += Math.abs(v);
          grad += Math.abs(data[i + 1]! - data[i - 1]!) + Math.abs(data[i + width]! - data[i - width]!);
          sum += data[i]!;
          n++;
        }
      }
      const mean = sum / n;
      // Clipped blocks (near black or white) have no noise for a reason: skip them.
      if (grad / n / 2 > TAMPER_SETTINGS.maxFlatGradient) {
        inked[by * bw + bx] = 1;
        continue;
      }
      if (mean < 20 || mean > 235) continue;
      const s = (c * abs) / n;
      sigma[by * bw + bx] = s;
      flat.push(s);
    }
  }
  if (flat.length < 20) return { suspicious: false, regions: [], imageSigma: 0 };
  flat.sort((a, b) => a - b);
  const median = flat[flat.length >> 1]!;
  if (median < TAMPER_SETTINGS.minImageSigma) return { suspicious: false, regions: [], imageSigma: median };
  const limit = median * TAMPER_SETTINGS.cleanRatio;
  const clean = new Uint8Array(bw * bh);
  for (let i = 0; i < clean.length; i++) clean[i] = sigma[i]! >= 0 && sigma[i]! < limit ? 1 : 0;
  // Connected components (4-neighbour) of too-clean blocks.
  const seen = new Uint8Array(bw * bh);
  const regions: TamperRegion[] = [];
  for (let start = 0; start < clean.length; start++) {
    if (!clean[start] || seen[start]) continue;
    const stack = [start];
    seen[start] = 1;
    let count = 0;
    let s = 0;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % bw;
      const y = Math.floor(i / bw);
      count++;
      s += sigma[i]!;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
      for (const j of [x > 0 ? i - 1 : -1, x < bw - 1 ? i + 1 : -1, y > 0 ? i - bw : -1, y < bh - 1 ? i + bw : -1]) {
        if (j >= 0 && clean[j] && !seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    if (count >= TAMPER_SETTINGS.minBlocks) {
      // Judged against its own surroundings, not only the whole frame: JPEG compression (q75-85,
      // as phones save) wipes the noise out of smooth 8x8 blocks here and there on the desk and
      // the paper, and those are only somewhat cleaner than their neighbours; a pasted fill is
      // almost noiseless beside them and holds the new text.
      const around = ringStats(sigma, clean, inked, bw, bh, x0, y0, x1, y1);
      const local = s / count < around.sigma * TAMPER_SETTINGS.localCleanRatio && around.cleanShare <= TAMPER_SETTINGS.maxRingCleanShare;
      if (local && inkedShare(inked, bw, bh, x0, y0, x1, y1) >= TAMPER_SETTINGS.minInkedShare)
        regions.push({ box: [x0 * B, y0 * B, (x1 - x0 + 1) * B, (y1 - y0 + 1) * B], blocks: count, sigma: s / count, imageSigma: median });
    }
  }
  return { suspicious: regions.length > 0, regions, imageSigma: median };
}

/**
 * The flat blocks in a band {@link RING} blocks wide round a box of blocks: the median noise
 * sigma of those not too clean, and the share of them all that are too clean. Blocks touching
 * a structured one are left out: the blurred edge of a glyph next to them reads as noise to the
 * operator, so on a page with text all round (a passport's MRZ band, development passport 10 at
 * JPEG 71) the plain paper between the lines looked far cleaner than its "noisy" neighbours and
 * was called pasted.
 */
function ringStats(
  sigma: Float32Array,
  clean: Uint8Array,
  inked: Uint8Array,
  bw: number,
  bh: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): { sigma: number; cleanShare: number } {
  const values: number[] = [];
  let cleanCount = 0;
  const nearInk = (x: number, y: number): boolean => {
    for (let ny = Math.max(0, y - 1); ny <= Math.min(bh - 1, y + 1); ny++)
      for (let nx = Math.max(0, x - 1); nx <= Math.min(bw - 1, x + 1); nx++) if (inked[ny * bw + nx]) return true;
    return false;
  };
  for (let y = Math.max(0, y0 - RING); y <= Math.min(bh - 1, y1 + RING); y++) {
    for (let x = Math.max(0, x0 - RING); x <= Math.min(bw - 1, x1 + RING); x++) {
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) continue;
      const i = y * bw + x;
      if (sigma[i]! < 0 || nearInk(x, y)) continue;
      if (clean[i]) cleanCount++;
      else values.push(sigma[i]!);
    }
  }
  values.sort((a, b) => a - b);
  const flat = values.length + cleanCount;
  return { sigma: values.length ? values[values.length >> 1]! : 0, cleanShare: flat ? cleanCount / flat : 0 };
}
const RING = 3;

/** Share of structured blocks in a box of blocks grown by one. */
function inkedShare(inked: Uint8Array, bw: number, bh: number, x0: number, y0: number, x1: number, y1: number): number {
  let n = 0;
  let hit = 0;
  for (let y = Math.max(0, y0 - 1); y <= Math.min(bh - 1, y1 + 1); y++) {
    for (let x = Math.max(0, x0 - 1); x <= Math.min(bw - 1, x1 + 1); x++) {
      n++;
      hit += inked[y * bw + x]!;
    }
  }
  return n ? hit / n : 0;
}

/** How far past the located MRZ lines (in the zone's own heights) its plain clear band reaches. */
const MRZ_BAND_GROWTH = 0.4;

/**
 * The regions that do not lie in a valid MRZ's clear band (their centre outside the located
 * zone, grown by {@link MRZ_BAND_GROWTH} of its height above and below). ICAO pages print the
 * MRZ on plain paper under no guilloche: at phone JPEG qualities that band is as noiseless as a
 * pasted fill beside the textured page (development passports 19 and 23: 48 and 258 blocks,
 * each the band between or round the MRZ lines). A paste inside the band is not seen by this
 * check; the MRZ's check digits and the doubts on what they do not cover guard that zone.
 */
export function regionsOutsideMrz(regions: readonly TamperRegion[], zone: readonly [Point, Point, Point, Point] | undefined): TamperRegion[] {
  if (!zone) return [...regions];
  const band = growQuad(zone, 0.02, MRZ_BAND_GROWTH);
  return regions.filter(({ box: [x, y, w, h] }) => !insideQuad(band, { x: x + w / 2, y: y + h / 2 }));
}

/** Whether a point lies inside a convex quad (corners in order, either winding). */
function insideQuad(q: readonly Point[], p: Point): boolean {
  let sign = 0;
  for (let i = 0; i < q.length; i++) {
    const a = q[i]!;
    const b = q[(i + 1) % q.length]!;
    const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}
