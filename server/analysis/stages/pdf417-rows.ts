/**
 * Each codeword's place down the rows, searched (the soft reader's second look, pdf417-soft.ts):
 * the rows placed from the row indicators can drift off their codewords toward one end, or bend
 * in the middle, by more than the middle half of a row that is read.
 */
import { readCodeword, type Grid, type Read } from './pdf417-grid.js';

/** Offsets down the rows tried round each codeword's expected place, in rows: up to a row and a quarter off. */
export const ROW_OFFSETS = Array.from({ length: 11 }, (_, i) => -1.25 + i * 0.25);

/**
 * Each codeword's offset down the rows: rows whose pitch or place was misjudged at one end
 * drift off their codewords, and a row read a row off reads the next row's codeword, from
 * another cluster, which its own cluster's patterns do not match. For each codeword the offset
 * (one of ROW_OFFSETS) is the one whose best matches (at the shift along the
 * row already found, ±1/4 module), summed over the codewords round it (rows and columns ±1), are
 * highest: rows bend smoothly. `profile(r, dv)`: row r's band moved down by dv rows. Returns
 * each codeword's offset and its own best match there.
 */
export function rowOffsets(
  profile: (r: number, dv: number) => Float64Array,
  first: readonly (Read | null)[],
  rows: number,
  grid: Grid,
): { dv: number; score: number }[] {
  const c = grid.columns;
  const score = first.map((rd, i) => {
    const r = Math.floor(i / c);
    const j = i % c;
    const s = rd?.shift ?? 0;
    return ROW_OFFSETS.map((d) => readCodeword(profile(r, d), grid, 17 + 17 * (j + 1), r % 3, [s - 0.25, s, s + 0.25])?.score ?? -1);
  });
  return first.map((_, i) => {
    const r = Math.floor(i / c);
    const j = i % c;
    let best = 0;
    let bestScore = -Infinity;
    for (let k = 0; k < ROW_OFFSETS.length; k++) {
      let v = 0;
      for (let q = Math.max(0, r - 1); q <= Math.min(rows - 1, r + 1); q++)
        for (let u = Math.max(0, j - 1); u <= Math.min(c - 1, j + 1); u++) v += score[q * c + u]![k]!;
      if (v > bestScore) {
        bestScore = v;
        best = k;
      }
    }
    return { dv: ROW_OFFSETS[best]!, score: score[i]![best]! };
  });
}

/** Steps tried from one row's offset to the next row's: rows bend smoothly, a quarter row at a time. */
const TRACK_STEPS = [-0.5, -0.25, 0, 0.25, 0.5];

/**
 * The offsets tracked along each codeword column from its best-read codeword, up and down one
 * row at a time, each row searched round the offset of the row before it: a column that bends
 * by more than ROW_OFFSETS reaches, or not along a line (the middle bulging past its ends), is
 * followed as far as it reads. `found`: the offsets and scores of the first search;
 * `reads`: the codewords read there (their shifts along the row).
 */
export function trackOffsets(
  profile: (r: number, dv: number) => Float64Array,
  found: readonly { dv: number; score: number }[],
  reads: readonly (Read | null)[],
  rows: number,
  grid: Grid,
): { dv: number; score: number }[] {
  const c = grid.columns;
  const out = found.map((f) => ({ ...f }));
  for (let j = 0; j < c; j++) {
    let anchor = 0;
    for (let r = 1; r < rows; r++) if (found[r * c + j]!.score > found[anchor * c + j]!.score) anchor = r;
    for (const dir of [-1, 1]) {
      for (let r = anchor + dir; r >= 0 && r < rows; r += dir) {
        const from = out[(r - dir) * c + j]!.dv;
        const s = reads[r * c + j]?.shift ?? 0;
        let best = { dv: from, score: -Infinity };
        for (const d of TRACK_STEPS) {
          const score = readCodeword(profile(r, from + d), grid, 17 + 17 * (j + 1), r % 3, [s - 0.25, s, s + 0.25])?.score ?? -1;
          if (score > best.score) best = { dv: from + d, score };
        }
        out[r * c + j] = best;
      }
    }
  }
  return out;
}
