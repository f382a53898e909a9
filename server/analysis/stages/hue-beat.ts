/**
 * A screen's moiré as a hue that turns (issue 20: screen replays whose chroma beat the per-tile
 * rules of recapture.ts missed). A screen lights each pixel through R, G and B sub-pixels side by
 * side; a camera whose pixels do not line up with them samples the triad at a phase that drifts
 * across the frame, so the colour it records cycles R → G → B → R: a hue that turns steadily,
 * on the card, its text and the desk round it alike. In the complex chroma z = R + ωG + ω²B
 * (ω = e^(2πi/3); zero on grey, its angle the hue) such a beat is one complex exponential,
 * power at +f and none at −f. Print gives nothing like it: a halftone, a guilloche, coloured
 * labels repeated down a column or the resampled JPEG grid of a resized upload swing between
 * hues (or in brightness), which puts as much power at −f as at +f.
 *
 * The hue spectra of the frame's tiles (the beat grid of recapture.ts) are summed, since the
 * beat keeps nearly one frequency over the whole displayed picture; the strongest frequency is
 * scored against its ring's median (`peak`) and against its mirror −f (`asymmetry`). A document
 * is a screen when both reach {@link HUE_BEAT_SETTINGS}.
 *
 * Where this stops: a second camera whose optics average the sub-pixels (the generated replays'
 * antialiasing kernel, about half of them) leaves no beat at all, turning or not.
 */
import { ringGeometry, ringMedians, strongestOverRings } from './spectrum.js';

export const HUE_BEAT_SETTINGS = {
  /** Lowest frequency scored, cycles per tile (a 51 px period on a 256 px tile): below, content. */
  minCycles: 5,
  /**
   * Peak over its ring's median, and over its mirror −f, from which a document is a screen.
   * Development half (tuned on; 24 fronts, 24 backs, 24 passports, and the development variant's
   * 16 of each): genuine peaks reached 552, and above 300 an asymmetry of 1.9 at most (the
   * highest, 4.7, on a peak of 83); of 48 development replays, the 22 caught reached 392-17,479
   * at an asymmetry of 7.5-574; one more (385 at 3.4) was left.
   */
  minPeak: 300,
  minAsymmetry: 6,
} as const;

export interface HueBeat {
  /** The strongest scored frequency's summed power over its ring's median. */
  readonly peak: number;
  /** That power over the power at the mirror frequency −f. */
  readonly asymmetry: number;
  /** The frequency, signed cycles per tile [fx, fy]. */
  readonly at: readonly [number, number];
}

/** Per tile size: which frequencies the hue beat scores (ring geometry: spectrum.ts). */
const scoredMasks = new Map<number, Uint8Array>();

function scoredMask(n: number): Uint8Array {
  let scored = scoredMasks.get(n);
  if (scored) return scored;
  const { ring } = ringGeometry(n);
  const maxR = n / 2;
  scored = new Uint8Array(n * n);
  const block = n / 8;
  // JPEG's 8x8 blocks and 2x2 chroma subsampling put energy on lines at multiples of n/8 cycles.
  const onGrid = (f: number): boolean => {
    const a = Math.abs(f);
    const m = a % block;
    return a >= block - 2 && (m <= 2 || m >= block - 2);
  };
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const fy = y > n / 2 ? y - n : y;
      const fx = x > n / 2 ? x - n : x;
      const r = ring[y * n + x]!;
      // Past n/4 cycles the axes hold a resized upload's resampled JPEG grid (the first save's
      // 2-pixel chroma blocks scaled: ~112 cycles on a 0.8x resize), which every phone upload can have.
      const highAxis = r > n / 4 && (Math.abs(fx) <= 2 || Math.abs(fy) <= 2);
      scored[y * n + x] = r >= HUE_BEAT_SETTINGS.minCycles && r <= maxR && !onGrid(fx) && !onGrid(fy) && !highAxis ? 1 : 0;
    }
  }
  scoredMasks.set(n, scored);
  return scored;
}

/** Scores a hue power spectrum (n×n, the tiles' sum) for a one-sided beat. */
export function scoreHueBeat(p: Float64Array, n: number): HueBeat {
  const { ring } = ringGeometry(n);
  const scored = scoredMask(n);
  const [best, at] = strongestOverRings(p, ring, scored, ringMedians(p, n));
  if (at < 0) return { peak: 0, asymmetry: 0, at: [0, 0] };
  const x = at % n;
  const y = (at - x) / n;
  const mirror = p[((n - y) % n) * n + ((n - x) % n)]!;
  return {
    peak: best,
    asymmetry: p[at]! / Math.max(mirror, Number.MIN_VALUE),
    at: [x > n / 2 ? x - n : x, y > n / 2 ? y - n : y],
  };
}

/** Whether a hue beat calls a document a screen. */
export function isHueBeatScreen(h: HueBeat): boolean {
  return h.peak >= HUE_BEAT_SETTINGS.minPeak && h.asymmetry >= HUE_BEAT_SETTINGS.minAsymmetry;
}
