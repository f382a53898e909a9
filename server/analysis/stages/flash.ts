/**
 * The screen-flash challenge (issue 20, point 5): while the widget paints the screen in the
 * colours the server drew, light from the screen tints the face in front of it, and much less
 * the room behind it. The face's chroma shift against the background, frame by frame, follows
 * the drawn sequence on a live face; a print or a screen does not answer (it is lit by the room,
 * or emits its own picture), and a replayed recording carries the colours of the sequence it was
 * recorded under, not of this one.
 */
import type { Raster } from '../raster.js';

/**
 * Correlation with the drawn sequence below which the flash was not followed. Measured on the
 * simulated sessions of the development half (docs/analysis.md): a face lit by the screen about
 * 0.9-1, still prints and photo sequences near 0, a replay under another sequence anywhere in -1..1
 * (the chance that two random sequences of ten colours correlate above 0.6 is about 0.5 %).
 */
export const FLASH_CORRELATION_MIN = 0.6;

/** An RGB colour, each channel 0-255. */
export type Rgb = readonly [number, number, number];

/** `#rrggbb` to RGB; null for anything else. */
export function parseHex(hex: string): Rgb | null {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : null;
}

/** The mean colour of the pixels whose position `inside` accepts, sampled every `step` pixels. */
function meanColour(raster: Raster, step: number, inside: (x: number, y: number) => boolean): { rgb: Rgb; n: number } {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = 0; y < raster.height; y += step) {
    for (let x = 0; x < raster.width; x += step) {
      if (!inside(x, y)) continue;
      const o = (y * raster.width + x) * 3;
      sum[0]! += raster.data[o]!;
      sum[1]! += raster.data[o + 1]!;
      sum[2]! += raster.data[o + 2]!;
      n++;
    }
  }
  return { rgb: n ? [sum[0]! / n, sum[1]! / n, sum[2]! / n] : [0, 0, 0], n };
}

/** Removes brightness from a colour's logs: what is left is its chroma. */
function chroma(v: Rgb): Rgb {
  const m = (v[0] + v[1] + v[2]) / 3;
  return [v[0] - m, v[1] - m, v[2] - m];
}

/**
 * The chroma of the face (the middle of its box: cheeks, nose, mouth) against the background
 * (everything outside the box grown 1.6×), as log ratios per channel; null for a grey raster or
 * when too little background is in view to compare against.
 */
export function faceChromaShift(raster: Raster, box: readonly [number, number, number, number]): Rgb | null {
  if (raster.channels !== 3) return null;
  const [bx, by, bw, bh] = box;
  const step = Math.max(1, Math.round(Math.max(raster.width, raster.height) / 320));
  const face = meanColour(raster, step, (x, y) => x >= bx + bw * 0.25 && x <= bx + bw * 0.75 && y >= by + bh * 0.35 && y <= by + bh * 0.85);
  const cx = bx + bw / 2;
  const cy = by + bh / 2;
  const back = meanColour(raster, step, (x, y) => Math.abs(x - cx) > bw * 0.8 || Math.abs(y - cy) > bh * 0.8);
  if (face.n < 20 || back.n < 50) return null;
  const log = (c: Rgb): Rgb => [Math.log(c[0] + 1), Math.log(c[1] + 1), Math.log(c[2] + 1)];
  const f = log(face.rgb);
  const b = log(back.rgb);
  return chroma([f[0] - b[0], f[1] - b[1], f[2] - b[2]]);
}

/**
 * Pearson correlation, over frames and channels, of the measured chroma shifts with the chroma
 * of the colours drawn (each channel centred over the frames, so the face's own colour and the
 * room's drop out). `shifts[i]` is the frame taken while `colours[i]` was on the screen, null
 * when no face or background was measurable in it. Null when fewer than three frames count or
 * nothing varies.
 */
export function flashCorrelation(shifts: readonly (Rgb | null)[], colours: readonly Rgb[]): number | null {
  const pairs = shifts.flatMap((s, i) => (s && colours[i] ? [{ y: s, x: chroma([colours[i][0] / 255, colours[i][1] / 255, colours[i][2] / 255]) }] : []));
  if (pairs.length < 3) return null;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let k = 0; k < 3; k++) {
    const mx = pairs.reduce((a, p) => a + p.x[k]!, 0) / pairs.length;
    const my = pairs.reduce((a, p) => a + p.y[k]!, 0) / pairs.length;
    for (const p of pairs) {
      const dx = p.x[k]! - mx;
      const dy = p.y[k]! - my;
      sxy += dx * dy;
      sxx += dx * dx;
      syy += dy * dy;
    }
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}
