/**
 * Thin PDF417 rows read with their neighbours' codewords cancelled (issue 20, `--rows thin`).
 * A blurred thin row's band carries the rows above and below it in amounts that change along
 * the symbol (pdf417-thin-rows.ts takes out one fixed share of their measured bands). Once the
 * rows have been read, the codewords above and below each one are known, mostly right: their
 * blurred patterns are projected out of its module vector, in whatever amount it holds them,
 * and what is left is compared with its own cluster's patterns with the same part projected
 * out of each (decision-feedback cancellation). Development-variant thin back 25: 144/228
 * codewords right read unmixed, 208/228 after two rounds of this.
 */
import type { GreyPlane } from '../raster.js';
import { bandProfile, moduleVector, normalise, templatesFor, type Grid, type Read } from './pdf417-grid.js';

/** Half the height of the band read at each row's centre, in rows. */
const CENTRE_HALF = 0.2;

/** Shifts along the row round each codeword's prior shift, in modules. */
const SHIFTS = [-0.125, 0, 0.125];

/**
 * A candidate pattern with less than this share of its energy outside the neighbours' patterns
 * is not compared: what is left of it is too little to tell apart.
 */
const MIN_LEFT = 0.15;

const dot17 = (a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number => {
  let s = 0;
  for (let i = 0; i < 17; i++) s += a[ao + i]! * b[bo + i]!;
  return s;
};

/** The part of `v` outside the span of the orthonormal `basis`, in place. */
function projectOut(v: Float64Array, basis: readonly Float64Array[]): void {
  for (const b of basis) {
    const d = dot17(v, 0, b, 0);
    for (let i = 0; i < 17; i++) v[i]! -= d * b[i]!;
  }
}

/**
 * Every codeword read again with the codewords `prior` puts above and below it cancelled. `prior`:
 * the symbol's codewords as read before (row by row, row indicators left out), whose shifts
 * along the rows are kept.
 */
export function readCancelled(
  plane: GreyPlane,
  grid: Grid,
  rows: number,
  yAt: (row: number, x: number) => number,
  prior: readonly (Read | null)[],
): (Read | null)[] {
  const c = grid.columns;
  const ts = templatesFor(grid.sigma);
  const profiles = Array.from({ length: rows }, (_, r) =>
    bandProfile(
      plane,
      (x) => yAt(r + 0.5 - CENTRE_HALF, x),
      (x) => yAt(r + 0.5 + CENTRE_HALF, x),
    ),
  );
  const out: (Read | null)[] = [];
  for (let r = 0; r < rows; r++) {
    const own = ts[r % 3]!;
    const n = own.length / 17;
    for (let j = 0; j < c; j++) {
      // The neighbours' patterns, made orthonormal (Gram-Schmidt); templates are zero-mean.
      const basis: Float64Array[] = [];
      for (const q of [r - 1, r + 1]) {
        const v = q >= 0 && q < rows ? prior[q * c + j]?.value : undefined;
        if (v === undefined) continue;
        const t = ts[q % 3]!.slice(v * 17, v * 17 + 17);
        projectOut(t, basis);
        const norm = Math.sqrt(dot17(t, 0, t, 0));
        if (norm < 1e-6) continue;
        for (let i = 0; i < 17; i++) t[i]! /= norm;
        basis.push(t);
      }
      // Each candidate's norm outside the neighbours' span; the same at every shift.
      const left = new Float64Array(n);
      for (let k = 0; k < n; k++) {
        let e = 1;
        for (const b of basis) e -= dot17(own, k * 17, b, 0) ** 2;
        left[k] = e >= MIN_LEFT ? Math.sqrt(e) : 0;
      }
      const s0 = prior[r * c + j]?.shift ?? 0;
      let best = -2;
      let second = -2;
      let value = -1;
      let at = s0;
      for (const d of SHIFTS) {
        const v = normalise(moduleVector(profiles[r]!, grid.at, 17 + 17 * (j + 1), 17, s0 + d));
        if (!v) continue;
        projectOut(v, basis);
        const vn = Math.sqrt(dot17(v, 0, v, 0));
        if (vn < 1e-6) continue;
        for (let k = 0; k < n; k++) {
          if (left[k] === 0) continue;
          const s = dot17(v, 0, own, k * 17) / (vn * left[k]!);
          if (s > best) {
            if (k !== value) second = best;
            best = s;
            value = k;
            at = s0 + d;
          } else if (s > second && k !== value) second = s;
        }
      }
      out.push(value < 0 ? null : { value, score: best, margin: best - second, shift: at });
    }
  }
  return out;
}
