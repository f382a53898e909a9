/**
 * Block-noise inconsistency check for pasted regions. Every camera image carries sensor noise
 * of a roughly even level; a field pasted in from a clean source (typed text on a flat patch)
 * has far less. The image is cut into blocks; in flat blocks (little structure) the noise level
 * is estimated with Immerkær's operator, which cancels edges to first order. A connected group
 * of flat blocks whose noise is far below the image's typical level is reported as pasted.
 *
 * Limits: phones that denoise heavily flatten the whole image (no contrast left to find), and a
 * paste that was re-noised to match is not found. The false-positive rate on the clean generated
 * set is printed by `npm run eval`.
 */
import type { GreyPlane } from '../raster.js';

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
  /** Minimum connected too-clean blocks to report. */
  minBlocks: 6,
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
      if (grad / n / 2 > TAMPER_SETTINGS.maxFlatGradient || mean < 20 || mean > 235) continue;
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
      regions.push({ box: [x0 * B, y0 * B, (x1 - x0 + 1) * B, (y1 - y0 + 1) * B], blocks: count, sigma: s / count, imageSigma: median });
    }
  }
  return { suspicious: regions.length > 0, regions, imageSigma: median };
}
