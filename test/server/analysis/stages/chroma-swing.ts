/**
 * Synthetic frames for the screen check's tests: flat grey with seeded noise and a faint colour
 * swing (a cosine of some cycles per 256 px) inside a box, each channel moved by its own weight.
 */
import type { Raster } from '../../../../server/analysis/raster.js';

export const SWING_W = 1000;
export const SWING_H = 750;

export interface Swing {
  /** Cycles per 256 px, across and down. */
  readonly cycles: readonly [number, number];
  /** Where the swing is drawn, [x0, y0, x1, y1]; the whole frame by default. */
  readonly box?: readonly [number, number, number, number];
  /** How far each channel (R, G, B) moves at the swing's peak, in levels. */
  readonly weights: readonly [number, number, number];
  /** Peak-to-peak width of the uniform noise, in levels. */
  readonly noise: number;
  readonly seed: number;
}

/** A SWING_W × SWING_H frame (module comment). */
export function swingFrame({ cycles, box = [0, 0, SWING_W, SWING_H], weights, noise, seed }: Swing): Raster {
  // xorshift32, not an LCG: an LCG's low bits repeat in step with the rows, a faint colour beat over the whole
  // frame at (9, 6) cycles that the frame-wide rule (beat-consensus.ts) rightly counts (ratio 955 on a plain frame).
  let s = seed;
  const next = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 4294967296 - 0.5) * noise;
  };
  const data = Buffer.alloc(SWING_W * SWING_H * 3);
  for (let y = 0; y < SWING_H; y++) {
    for (let x = 0; x < SWING_W; x++) {
      const inside = x >= box[0] && y >= box[1] && x < box[2] && y < box[3];
      const a = inside ? Math.cos((2 * Math.PI * (cycles[0] * x + cycles[1] * y)) / 256) : 0;
      const i = (y * SWING_W + x) * 3;
      for (let c = 0; c < 3; c++) data[i + c] = 140 + weights[c]! * a + next();
    }
  }
  return { data, width: SWING_W, height: SWING_H, channels: 3 };
}
