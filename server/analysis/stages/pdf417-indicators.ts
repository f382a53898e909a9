/**
 * The row indicators of a PDF417 symbol, for the soft reader (pdf417-soft.ts): the codewords at
 * either end of every row name the row (and, by cluster, the symbol's row count, level and
 * column count). Scanlines read down both ends place the rows: a line through each end's
 * (row, y) points, and the symbol's shape by a vote weighted by each read's margin.
 */
import type { GreyPlane } from '../raster.js';
import { bandProfile, readCodeword, type Grid } from './pdf417-grid.js';
import { UNMIX_SHARE, unmixedLine, type RowLine } from './pdf417-thin-rows.js';

/** Best match over the three clusters: the row a row-indicator read puts a scanline in. */
function indicatorRow(p: Float64Array, grid: Grid, m0: number): { row: number; low: number; cluster: number; margin: number } | null {
  let best: { row: number; low: number; cluster: number; score: number } | null = null;
  let second = -2;
  for (let k = 0; k < 3; k++) {
    const rd = readCodeword(p, grid, m0, k, [0]);
    if (!rd) continue;
    if (!best || rd.score > best.score) {
      second = Math.max(second, best?.score ?? -2, rd.score - rd.margin);
      best = { row: 3 * Math.floor(rd.value / 30) + k, low: rd.value % 30, cluster: k, score: rd.score };
    } else second = Math.max(second, rd.score);
  }
  return best && { row: best.row, low: best.low, cluster: best.cluster, margin: best.score - second };
}

/**
 * Rows' positions at each end, y = a + b t (t the row): the median of the slopes between the
 * side's points (Theil-Sen) and of their intercepts, then least squares on the points within a
 * third of a row of that line (misread rows left out). Each end has its own line: the fitted
 * edges the plane was straightened on can be off by a row or more at one end.
 */
export function rowLine(t: readonly number[], y: readonly number[]): { a: number; b: number; n: number } | null {
  const slopes: number[] = [];
  const step = Math.max(1, Math.floor(t.length / 80));
  for (let i = 0; i < t.length; i += step) for (let j = i + 1; j < t.length; j += step) if (t[j] !== t[i]) slopes.push((y[j]! - y[i]!) / (t[j]! - t[i]!));
  if (slopes.length < 10) return null;
  slopes.sort((u, v) => u - v);
  const b = slopes[Math.floor(slopes.length / 2)]!;
  if (!(b > 0)) return null;
  const as = t.map((ti, i) => y[i]! - b * ti).sort((u, v) => u - v);
  const a = as[Math.floor(as.length / 2)]!;
  const keep = t.map((_, i) => i).filter((i) => Math.abs(y[i]! - a - b * t[i]!) < b / 3);
  if (keep.length < 8) return null;
  const mt = keep.reduce((s, i) => s + t[i]!, 0) / keep.length;
  const my = keep.reduce((s, i) => s + y[i]!, 0) / keep.length;
  let sxx = 0;
  let sxy = 0;
  for (const i of keep) {
    sxx += (t[i]! - mt) ** 2;
    sxy += (t[i]! - mt) * (y[i]! - my);
  }
  const pitch = sxx > 0 ? sxy / sxx : b;
  return { a: my - pitch * mt, b: pitch, n: keep.length };
}

/** What the row indicators say: each scanline's row at either end, and the symbol's shape by vote. */
export interface Indicators {
  readonly found: readonly { t: number[]; y: number[] }[];
  readonly r3: number | null;
  readonly lv: number | null;
  /** Every level-and-rows value read, most votes first (`lv` is the first). */
  readonly lvs: readonly number[];
  readonly columns: number | null;
}

/** Scanlines (three pixels averaged) down both row indicators: each names its row. */
export function readIndicators(plane: GreyPlane, grid: Grid, y0: number, y1: number, pitch = 0): Indicators {
  const ends = [17, 17 + 17 * (grid.columns + 1)] as const;
  const found = [
    { t: [] as number[], y: [] as number[] },
    { t: [] as number[], y: [] as number[] },
  ];
  const votes = new Map<string, number>();
  const vote = (key: string, w: number): void => void votes.set(key, (votes.get(key) ?? 0) + w);
  const span = y1 - y0;
  for (let y = Math.max(1, Math.floor(y0 - span * 0.05)); y < Math.min(plane.height - 2, y1 + span * 0.05); y++) {
    const p =
      pitch > 0
        ? unmixedLine(plane, y, pitch, UNMIX_SHARE)
        : bandProfile(
            plane,
            () => y - 1,
            () => y + 2,
          );
    for (const side of [0, 1] as const) {
      const rd = indicatorRow(p, grid, ends[side]);
      if (!rd || rd.margin < 0.03) continue;
      found[side]!.t.push(rd.row + 0.5);
      found[side]!.y.push(y + 0.5);
      // Left: cluster 0 says rows/3, 1 the level and rows mod 3, 2 the columns; the right rotates them.
      const what = (rd.cluster + (side === 1 ? 2 : 0)) % 3;
      vote(what === 0 ? `r3:${rd.low}` : what === 1 ? `lv:${rd.low}` : `c:${rd.low + 1}`, rd.margin);
    }
  }
  const ranked = (prefix: string): number[] =>
    [...votes]
      .filter(([k]) => k.startsWith(prefix))
      .sort((a, b) => b[1] - a[1])
      .map(([k]) => Number(k.slice(prefix.length)));
  const top = (prefix: string): number | null => ranked(prefix)[0] ?? null;
  return { found, r3: top('r3:'), lv: top('lv:'), lvs: ranked('lv:'), columns: top('c:') };
}

/**
 * The rows' lines at the two ends, and the ends' own lines when one was replaced. An end with no
 * line takes the other's; so does an end whose line rests on fewer points than the symbol has
 * rows and whose pitch is more than {@link PITCH_AGREEMENT} off the other end's, better-supported
 * one: the symbol was straightened along its own edges, so both ends span about the same rows
 * (development `tilt` 2: 8 points on the right put its pitch at 12.6 px against 23.7 on the
 * left, from 91, and the rows of the right half were read up to six rows off). A few points can
 * still be right and the many wrong (a lens can bend the rows), so the ends' own lines are kept
 * for a second reading when the first decodes nothing.
 */
export function endLines(fitted: readonly (RowLine | null)[], rows: number): { lines: readonly [RowLine, RowLine]; own?: readonly [RowLine, RowLine] } | null {
  const [l, r] = fitted;
  if (!l || !r) return l || r ? { lines: [l ?? r!, r ?? l!] } : null;
  const [weak, strong] = l.n < r.n ? [l, r] : [r, l];
  if (weak.n >= rows || Math.abs(weak.b - strong.b) <= PITCH_AGREEMENT * strong.b) return { lines: [l, r] };
  return { lines: weak === l ? [r, r] : [l, l], own: [l, r] };
}

/** How far the two ends' row pitches may differ (a row off at one end of a 19-row symbol is 5 %). */
const PITCH_AGREEMENT = 0.15;
