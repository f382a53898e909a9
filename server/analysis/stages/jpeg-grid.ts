/**
 * Quantisation-history check for locally edited JPEGs (`photoshopped`). A phone photo saved as
 * JPEG keeps, in every 8x8 block of its luma, DCT coefficients on the lattice of that save's
 * quantisation steps; saving it again at a higher quality keeps them close to it. Anything
 * added in between (typed text on a patch, a patch cut from another image or from elsewhere on
 * the same picture at an offset that is not a multiple of 8, noise added to blend it in) has
 * coefficients off that lattice. This is the aligned double-compression test of the
 * image-forensics literature (Farid's "JPEG ghosts", Lin et al.'s DQ effect), done without
 * re-encoding: the steps are estimated from the image's own coefficient histograms.
 *
 * 1. Luma of every 8x8 block on the grid starting at (0, 0) is DCT-transformed (blocks with a
 *    clipped channel are skipped: clipping moves coefficients off any lattice).
 * 2. For each low AC frequency the step is the largest p whose phase 2πc/p agrees across the
 *    coefficients big enough to tell (|c| ≥ p/2). Steps under {@link JPEG_GRID_SETTINGS.minStep}
 *    say nothing above decoding noise.
 * 3. Each block scores the mean cos(2πc/step) of its telling coefficients: near 1 on the
 *    lattice, near 0 off it. Off-lattice blocks that form a connected group in an image whose
 *    blocks are otherwise on it are reported.
 *
 * Limits: an image saved once only at quality ~90+ (steps under 4) or cropped off the 8-pixel
 * grid gives no lattice and no verdict; an edit aligned to the grid and saved at the same
 * quality as the original is not found; neither is a flat fill with no content (no telling
 * coefficients), which is the block-noise check's case (tamper.ts).
 */
import type { Raster } from '../raster.js';

export const JPEG_GRID_SETTINGS = {
  /** Low AC frequencies used (zig-zag order 1..N). */
  frequencies: 20,
  /** Candidate steps are searched up to this. */
  maxStep: 64,
  /** A frequency's step is trusted when at least this many coefficients tell and agree this well. */
  minSamples: 40,
  /** Coefficients per frequency looked at for the step (a spread sample of the blocks). */
  maxSamples: 12_000,
  minAgreement: 0.4,
  /** …and the largest step fitting within this of the best fit is taken. */
  fitTolerance: 0.1,
  /** Steps below this are within decoding noise (RGB rounding, the last high-quality save). */
  minStep: 4,
  /** At least this many frequencies need a trusted step for any verdict. */
  minFrequencies: 5,
  /** A block is judged with at least this many telling coefficients… */
  minTelling: 4,
  /** …and is off the lattice when their mean cos is below this. */
  offLattice: 0.35,
  /** The lattice holds when at most this share of judged blocks is off it. */
  maxOffShare: 0.12,
  /** A group of connected off-lattice blocks this large is an edit. */
  minBlocks: 5,
} as const;

export interface GridRegion {
  /** [x, y, width, height] in the image. */
  readonly box: readonly [number, number, number, number];
  readonly blocks: number;
}

export interface GridResult {
  /** A connected group of blocks off the image's quantisation lattice was found. */
  readonly suspicious: boolean;
  /** False when the image shows no usable lattice (no verdict). */
  readonly judged: boolean;
  /** Estimated step per frequency used (0: not trusted). */
  readonly steps: readonly number[];
  /** Share of judged blocks off the lattice. */
  readonly offShare: number;
  readonly regions: readonly GridRegion[];
}

const N = 8;
/** Orthonormal 8-point DCT basis (JPEG's DCT, whose coefficients the quantisation steps apply to). */
const BASIS = (() => {
  const m = new Float64Array(N * N);
  for (let u = 0; u < N; u++) {
    const c = u === 0 ? Math.sqrt(1 / N) : Math.sqrt(2 / N);
    for (let x = 0; x < N; x++) m[u * N + x] = c * Math.cos(((2 * x + 1) * u * Math.PI) / (2 * N));
  }
  return m;
})();
/** Zig-zag order of (u, v) as u * 8 + v, DC excluded. */
const ZIGZAG = (() => {
  const out: number[] = [];
  for (let s = 0; s < 2 * N - 1; s++) {
    for (let i = 0; i <= s; i++) {
      const u = s % 2 === 0 ? s - i : i;
      const v = s - u;
      if (u < N && v < N) out.push(u * N + v);
    }
  }
  return out.slice(1);
})();

/**
 * cos(2πx) from a table with linear interpolation (error under 5e-6, far inside every threshold
 * above): the step search alone takes tens of millions of cosines on a 12 MP photo.
 */
const TURN_STEPS = 1024;
const COS_TURN = Float64Array.from({ length: TURN_STEPS + 1 }, (_, i) => Math.cos((2 * Math.PI * i) / TURN_STEPS));
function cosTurn(x: number): number {
  const t = (x - Math.floor(x)) * TURN_STEPS;
  const i = Math.floor(t);
  const a = COS_TURN[i]!;
  return a + (COS_TURN[i + 1]! - a) * (t - i);
}

/**
 * Near-black or near-white pixels may have been clipped by the decoder (the IDCT's ringing
 * past 0 or 255, moved a little by the colour conversion): such blocks are off any lattice.
 */
const CLIP_LOW = 3;
const CLIP_HIGH = 252;

/**
 * The chosen low-frequency coefficients of every unclipped block; NaN rows for clipped ones.
 * Each block's luma (the decoder's Y up to rounding, as float32) is made as the block is
 * transformed, not as a whole-image plane first, and the 8-point sums are written out term by
 * term in the same order as a loop adds them: the same numbers, without a 48 MB plane and a
 * second pass over a 12 MP photo (docs/performance.md, 2026-11-28).
 */
function blockCoefficients(r: Raster, freqs: readonly number[]): { coef: Float32Array; bw: number; bh: number } {
  const bw = Math.floor(r.width / N);
  const bh = Math.floor(r.height / N);
  const k = freqs.length;
  const coef = new Float32Array(bw * bh * k).fill(Number.NaN);
  const tmp = new Float64Array(N * N);
  // The row pass computes only the horizontal frequencies the chosen ones use.
  const maxV = Math.max(...freqs.map((f) => f % N));
  const vs = Int32Array.from(freqs, (f) => f % N); // horizontal frequency
  const us = Int32Array.from(freqs, (f) => (f - (f % N)) / N); // vertical frequency
  const d = r.data;
  const grey = r.channels === 1;
  const stride = grey ? 1 : 3;
  const row = new Float64Array(N);
  for (let by = 0; by < bh; by++) {
    blocksNext: for (let bx = 0; bx < bw; bx++) {
      for (let yy = 0; yy < N; yy++) {
        const at = ((by * N + yy) * r.width + bx * N) * stride;
        for (let x = 0, i = at; x < N; x++, i += stride) {
          if (grey) {
            const v = d[i]!;
            if (v <= CLIP_LOW || v >= CLIP_HIGH) continue blocksNext;
            row[x] = v;
          } else {
            const R = d[i]!;
            const G = d[i + 1]!;
            const B = d[i + 2]!;
            if (R <= CLIP_LOW || G <= CLIP_LOW || B <= CLIP_LOW || R >= CLIP_HIGH || G >= CLIP_HIGH || B >= CLIP_HIGH) continue blocksNext;
            row[x] = Math.fround(0.299 * R + 0.587 * G + 0.114 * B);
          }
        }
        // Rows first: tmp[yy][u] = Σx B[u][x] · y[yy][x].
        const y0 = row[0]!;
        const y1 = row[1]!;
        const y2 = row[2]!;
        const y3 = row[3]!;
        const y4 = row[4]!;
        const y5 = row[5]!;
        const y6 = row[6]!;
        const y7 = row[7]!;
        for (let u = 0; u <= maxV; u++) {
          const b = u * N;
          tmp[yy * N + u] =
            0 +
            BASIS[b]! * y0 +
            BASIS[b + 1]! * y1 +
            BASIS[b + 2]! * y2 +
            BASIS[b + 3]! * y3 +
            BASIS[b + 4]! * y4 +
            BASIS[b + 5]! * y5 +
            BASIS[b + 6]! * y6 +
            BASIS[b + 7]! * y7;
        }
      }
      const out = (by * bw + bx) * k;
      for (let j = 0; j < k; j++) {
        const v = vs[j]!;
        const b = us[j]! * N;
        coef[out + j] =
          0 +
          BASIS[b]! * tmp[v]! +
          BASIS[b + 1]! * tmp[N + v]! +
          BASIS[b + 2]! * tmp[2 * N + v]! +
          BASIS[b + 3]! * tmp[3 * N + v]! +
          BASIS[b + 4]! * tmp[4 * N + v]! +
          BASIS[b + 5]! * tmp[5 * N + v]! +
          BASIS[b + 6]! * tmp[6 * N + v]! +
          BASIS[b + 7]! * tmp[7 * N + v]!;
      }
    }
  }
  return { coef, bw, bh };
}

/**
 * The step of one frequency: the largest p that is a clear local maximum of how well the
 * telling coefficients (|c| ≥ 0.3p) fit its lattice. Divisors of the true step fit as well
 * (the largest is taken), its neighbours visibly worse (cos(2π/(T+1)) is ~0.6 for T = 8). A
 * picture saved twice fits both lattices: the last save's exactly, the first one's a little
 * less; the coarser, first one is taken, since an edit made between the two saves is off it
 * only. 0 when nothing fits.
 */
function estimateStep(values: readonly number[]): number {
  const S = JPEG_GRID_SETTINGS;
  const fit = new Float64Array(S.maxStep + 1).fill(-1);
  let best = -1;
  for (let p = S.minStep; p <= S.maxStep; p++) {
    let sum = 0;
    let n = 0;
    const inv = 1 / p;
    for (const c of values) {
      if (Math.abs(c) < p * 0.3) continue;
      sum += cosTurn(c * inv);
      n++;
    }
    if (n < S.minSamples) continue;
    fit[p] = sum / n;
    best = Math.max(best, fit[p]!);
  }
  if (best < S.minAgreement) return 0;
  for (let p = S.maxStep; p >= S.minStep; p--) if (fit[p]! >= best - S.fitTolerance) return p;
  return 0;
}

/** Checks a decoded JPEG (at its own resolution, uncropped) for blocks off its quantisation lattice. */
export function detectGridInconsistency(r: Raster): GridResult {
  const S = JPEG_GRID_SETTINGS;
  const freqs = ZIGZAG.slice(0, S.frequencies);
  const { coef, bw, bh } = blockCoefficients(r, freqs);
  const k = freqs.length;
  const steps = freqs.map((_, j) => {
    // A sample is enough to find a step: a 12 MP photo has ~190,000 blocks.
    const stride = Math.max(1, Math.floor((bw * bh) / S.maxSamples));
    const values: number[] = [];
    for (let b = 0; b < bw * bh; b += stride) {
      const c = coef[b * k + j]!;
      if (!Number.isNaN(c)) values.push(c);
    }
    return estimateStep(values);
  });
  const none: GridResult = { suspicious: false, judged: false, steps, offShare: 0, regions: [] };
  if (steps.filter((p) => p > 0).length < S.minFrequencies) return none;
  const off = new Uint8Array(bw * bh);
  let judged = 0;
  let offCount = 0;
  for (let b = 0; b < bw * bh; b++) {
    let sum = 0;
    let n = 0;
    for (let j = 0; j < k; j++) {
      const p = steps[j]!;
      const c = coef[b * k + j]!;
      if (!p || Number.isNaN(c) || Math.abs(c) < p * 0.6) continue;
      sum += cosTurn(c / p);
      n++;
    }
    if (n < S.minTelling) continue;
    judged++;
    if (sum / n < S.offLattice) {
      off[b] = 1;
      offCount++;
    }
  }
  if (judged < 50) return none;
  const offShare = offCount / judged;
  if (offShare > S.maxOffShare) return { ...none, offShare };
  const regions = offGroups(off, bw, bh).filter((g) => g.blocks >= S.minBlocks);
  return { suspicious: regions.length > 0, judged: true, steps, offShare, regions };
}

/** 8-connected groups of off-lattice blocks. */
function offGroups(off: Uint8Array, bw: number, bh: number): GridRegion[] {
  const seen = new Uint8Array(off.length);
  const out: GridRegion[] = [];
  for (let start = 0; start < off.length; start++) {
    if (!off[start] || seen[start]) continue;
    seen[start] = 1;
    const stack = [start];
    let count = 0;
    let [x0, y0, x1, y1] = [bw, bh, -1, -1];
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % bw;
      const y = (i - x) / bw;
      count++;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= bw || ny >= bh) continue;
          const j = ny * bw + nx;
          if (off[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    out.push({ box: [x0 * N, y0 * N, (x1 - x0 + 1) * N, (y1 - y0 + 1) * N], blocks: count });
  }
  return out;
}
