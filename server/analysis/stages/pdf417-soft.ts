/**
 * A soft PDF417 codeword reader for symbols zxing locates but cannot decode (issue 20): blur
 * and small modules merge narrow bars, and zxing decides each bar's width before it looks the
 * codeword up, so one merged pair loses the codeword. Here the symbol, straightened along its
 * own edges (barcode-fit.ts), is read on a module grid: every codeword boundary is a space
 * followed by a bar in every row, so the profile averaged down the rows marks the column
 * boundaries; the row indicators name each scanline's row, which places the rows; each row's
 * middle is compared in grey with the 929 patterns of its cluster (row mod 3,
 * pdf417-patterns.ts) blurred as much as the start and stop patterns are; the codewords whose
 * best match is not clearly ahead of the next are erasures for Reed-Solomon (pdf417-rs.ts), and
 * the corrected codewords go to text (pdf417-text.ts). Thin rows (1.5 modules) are read with
 * their neighbours' share taken out (pdf417-thin-rows.ts), last with their neighbours' codewords
 * cancelled (pdf417-cancel.ts). Strict: the correction keeps a quarter
 * of the error-correction codewords unspent, the row indicators must agree with the grid, the
 * length descriptor must match, and the caller still requires a valid AAMVA record.
 */
import type { GreyPlane } from '../raster.js';
import { straighten, type SymbolFit } from './barcode-fit.js';
import { bandProfile, columnShift, findGrid, readAligned, readAlignedAt, readCodeword, type Grid, type Read } from './pdf417-grid.js';
import { findGridByEnds } from './pdf417-grid-ends.js';
import { rowOffsets, trackOffsets } from './pdf417-rows.js';
import { readCancelled } from './pdf417-cancel.js';
import { correctErasures } from './pdf417-rs.js';
import { codewordsToText } from './pdf417-text.js';
import { endLines, readIndicators, rowLine, type Indicators } from './pdf417-indicators.js';
import { edgeLine, pitchModules, rowModules, LIGHT_UNMIX_SHARE, THIN_ROW_MODULES, UNMIX_SHARE, unmixedBand, type RowLine } from './pdf417-thin-rows.js';

export type { RowLine } from './pdf417-thin-rows.js';

/** Quiet zone of the straightened plane, as a share of the symbol's length. */
const MARGIN = 0.04;

/** Column counts tried round the first fit's when its row indicators disagree with it. */
const COUNT_STEPS = [1, -1, 2, -2, 3, -3, 4, -4];

/**
 * Reads the codewords of a fitted PDF417 symbol and decodes them; null unless the row
 * indicators agree with the grid, Reed-Solomon corrects the word with margin to spare, and the
 * data decode.
 */
export function softDecodePdf417(g: GreyPlane, fit: SymbolFit, scale = 3): string | null {
  const layout = softLayout(g, fit, scale);
  if (!layout) return null;
  const rows = readRows(layout);
  const text = readLayout(layout, rows);
  if (text !== null) return text;
  // One end's row line replaced by the other's (endLines) and nothing decoded: the ends' own
  // lines read too, so the replacement never costs a symbol they decode.
  const own = layout.ownEnds ? readLayout(layout.ownEnds()) : null;
  if (own !== null || layout.unmix === 0) return own;
  // Thin rows read unmixed decoded nothing: their middle halves as read before.
  const plain = readLayout({ ...layout, unmix: 0 });
  if (plain !== null) return plain;
  // A sharper capture mixes its thin rows less than UNMIX_SHARE assumes, and taking out that
  // much of the neighbours garbles each row (development-variant back 27: 194/228 codewords
  // right at 0.35, 213/228 at 0.2): a lighter share.
  const light = readLayout({ ...layout, unmix: LIGHT_UNMIX_SHARE });
  if (light !== null) return light;
  // Rows mixed with their neighbours by amounts no one share fits: those neighbours' codewords,
  // as read, cancelled from each row (pdf417-cancel.ts), twice, last.
  return readCancelledRounds(layout, rows.reads);
}

/** Rounds of neighbour cancellation on a thin layout, each from the round before, starting at the rows as placed. */
const CANCEL_ROUNDS = 2;

/** Added to the margin of a codeword read the same in two rounds: more than any margin (scores lie in [-1, 1], a runner-up no lower than -2). */
const AGREED = 4;

function readCancelledRounds(layout: SoftLayout, first: readonly (Read | null)[]): string | null {
  let prior = first;
  for (let round = 0; round < CANCEL_ROUNDS; round++) {
    const reads = readCancelled(layout.plane, layout.grid, layout.rows, layout.yAt, prior);
    // A codeword the round read as the one before did is less likely wrong than any that
    // changed: the changed ones are erased first.
    const ranked = reads.map((rd, i) => (rd && rd.value === prior[i]?.value ? { ...rd, margin: rd.margin + AGREED } : rd));
    const text = decodeAtLevels({ reads: ranked, rows: layout.rows, columns: layout.grid.columns, level: layout.level }, layout.otherLevels);
    if (text !== null) return text;
    prior = reads;
  }
  return null;
}

/** The rows as placed (`first`, when already read), then each codeword searched down the rows, then tracked; the first that decodes. */
function readLayout(layout: SoftLayout, first = readRows(layout)): string | null {
  const decodeReads = (symbol: SoftSymbol): string | null => decodeAtLevels(symbol, layout.otherLevels);
  const text = decodeReads(first);
  if (text !== null) return text;
  // Only when the rows as placed do not decode: each codeword searched down the rows too, then
  // tracked along its column from the best-read codeword (a column bending past the first
  // search's reach, or not along a line). A third round round the line the first offsets made
  // down each column decoded nothing the tracking did not (development sweep, 2026-11-28).
  const once = readRowsShifted(layout, first);
  const again = decodeReads(once.symbol);
  if (again !== null) return again;
  return decodeReads(readRowsShifted(layout, once.symbol, once.found).symbol);
}

/** A symbol's codewords as read in grey, row by row (row indicators left out), before Reed-Solomon. */
export interface SoftSymbol {
  readonly reads: readonly (Read | null)[];
  readonly rows: number;
  readonly columns: number;
  readonly level: number;
}

/** Where a fitted symbol's rows and modules lie on its straightened plane. */
export interface SoftLayout {
  readonly plane: GreyPlane;
  readonly grid: Grid;
  readonly rows: number;
  readonly level: number;
  /** Other levels the row indicators read, most votes first (tried when `level` decodes nothing). */
  readonly otherLevels: readonly number[];
  /** The y of row boundary `row` (fractional) at x. */
  readonly yAt: (row: number, x: number) => number;
  /** The layout on the ends' own row lines, when one end's was replaced by the other's (endLines). */
  readonly ownEnds?: () => SoftLayout;
  /** Rows at most THIN_ROW_MODULES tall. */
  readonly thin: boolean;
  /** Share of the neighbour rows taken out of each row's centre (unmixedBand, thin rows); 0: each row's middle half read as it is. */
  readonly unmix: number;
}

/** The codewords of a fitted PDF417 symbol read on its grid; null unless its shape is read consistently. */
export function softReadCodewords(g: GreyPlane, fit: SymbolFit, scale = 3): SoftSymbol | null {
  const layout = softLayout(g, fit, scale);
  return layout && readRows(layout);
}

/** Each row's middle half (the blur mixes rows nearest their edges) moved down by `dv` rows; thin rows' centres unmixed. */
function rowBand(layout: SoftLayout, row: number, dv: number): Float64Array {
  if (layout.unmix > 0) return unmixedBand(layout.plane, layout.yAt, row, dv, layout.unmix);
  return bandProfile(
    layout.plane,
    (x) => layout.yAt(row + 0.25 + dv, x),
    (x) => layout.yAt(row + 0.75 + dv, x),
  );
}

function readRows(layout: SoftLayout): SoftSymbol {
  const { grid, rows, level } = layout;
  const profiles = Array.from({ length: rows }, (_, row) => rowBand(layout, row, 0));
  return { reads: readAligned(profiles, grid), rows, columns: grid.columns, level };
}

/**
 * The codewords read again, each at its own offset down the rows (rowOffsets, round the rows as
 * placed; with `track`, trackOffsets from those offsets) and then its own shift along them.
 */
export function readRowsShifted(
  layout: SoftLayout,
  first: SoftSymbol,
  track?: readonly { dv: number; score: number }[],
): { symbol: SoftSymbol; found: { dv: number; score: number }[] } {
  const { grid, rows, level } = layout;
  const bands = new Map<string, Float64Array>();
  const band = (r: number, dv: number): Float64Array => {
    const key = `${r}:${dv}`;
    let p = bands.get(key);
    if (!p) bands.set(key, (p = rowBand(layout, r, dv)));
    return p;
  };
  const found = track ? trackOffsets(band, track, first.reads, rows, grid) : rowOffsets(band, first.reads, rows, grid);
  const reads = readAlignedAt((r, j) => band(r, found[r * grid.columns + j]!.dv), rows, grid);
  return { symbol: { reads, rows, columns: grid.columns, level }, found };
}

/** The straightened plane, its module grid and its rows; null unless the symbol's shape is read consistently. */
export function softLayout(g: GreyPlane, fit: SymbolFit, scale = 3): SoftLayout | null {
  const plane = straighten(g, fit, scale, MARGIN);
  if (!plane) return null;
  const { width, height } = plane;
  // straighten() puts the symbol's ends MARGIN of its length in from the plane's sides, and its
  // edges as many pixels in from the top and bottom (a quarter of the height at most).
  const x0 = (MARGIN / (1 + 2 * MARGIN)) * width;
  const x1 = ((1 + MARGIN) / (1 + 2 * MARGIN)) * width;
  const marginPx = MARGIN * (x1 - x0);
  const y0 = 4 * marginPx < height ? marginPx : height / 4;
  const y1 = height - y0;
  const avg = bandProfile(
    plane,
    () => y0 + (y1 - y0) * 0.05,
    () => y1 - (y1 - y0) * 0.05,
  );
  let grid = findGrid(avg, x0, x1);
  if (!grid) return null;
  const first = grid.columns;
  let said = readIndicators(plane, grid, y0, y1);
  // The start and stop patterns alone can fit a column more or less (a module size 1/13 off on
  // a small symbol); the row indicators name the count, so the grid is fitted again with theirs.
  // A lens can bend the scale at the ends past the quadratic, and the indicators there are
  // then misread: the grid through the boundaries themselves is tried first.
  if (said.columns !== grid.columns && grid.through) {
    const check = readIndicators(plane, grid.through, y0, y1);
    if (check.columns === grid.columns) [grid, said] = [grid.through, check];
  }
  if (said.columns !== null && said.columns !== grid.columns) {
    const again = findGrid(avg, x0, x1, said.columns);
    const check = again && readIndicators(plane, again, y0, y1);
    if (again && check && check.columns === again.columns) [grid, said] = [again, check];
  }
  // Indicators read on a grid of the wrong count are garbled and can name no count at all
  // (development `tilt` 5: 15 columns chosen for 12, the indicators then said 29): the counts
  // next to it are fitted in turn, nearest first, and the first whose indicators name it kept.
  for (const d of COUNT_STEPS) {
    if (said.columns === grid.columns) break;
    const again = first + d >= 1 ? findGrid(avg, x0, x1, first + d) : null;
    const check = again && readIndicators(plane, again, y0, y1);
    if (again && check && check.columns === again.columns) [grid, said] = [again, check];
  }
  // Still no count the indicators confirm, or one confirmed by a few garbled reads that place
  // no rows (development `columns-wide` 6: 13 for 14, then 71 rows): the first count and its
  // neighbours again, each end fitted apart (a lens that bends the module size both ways,
  // pdf417-grid-ends.ts).
  const confirmed = (s: Indicators, columns: number): boolean =>
    s.columns === columns && s.r3 !== null && s.lv !== null && s.found.some((f) => rowLine(f.t, f.y) !== null);
  for (const d of [0, ...COUNT_STEPS]) {
    if (confirmed(said, grid.columns)) break;
    const again = first + d >= 1 ? findGridByEnds(avg, x0, x1, first + d) : null;
    const check = again && readIndicators(plane, again, y0, y1);
    if (again && check && confirmed(check, again.columns)) [grid, said] = [again, check];
  }
  // Thin rows (the height between the fitted edges over the rows voted, in modules): the
  // indicators read again with the neighbour rows' share taken out of each scanline.
  if (said.r3 !== null && said.lv !== null) {
    const pitch = (y1 - y0) / (said.r3 * 3 + (said.lv % 3) + 1);
    if (pitchModules(grid, pitch) <= THIN_ROW_MODULES) {
      const check = readIndicators(plane, grid, y0, y1, pitch);
      if (check.columns === grid.columns && check.r3 !== null && check.lv !== null) said = check;
    }
  }
  const { found, r3, lv } = said;
  if (r3 === null || lv === null || said.columns !== grid.columns) return null;
  const rows = r3 * 3 + (lv % 3) + 1;
  const level = Math.floor(lv / 3);
  // The other levels the indicators read with the same rows, most votes first: a blurred level
  // indicator can read as its neighbour (development `columns-wide` 10: 4 for 5, with 216 of 225
  // codewords right). Trying one costs a Reed-Solomon decode; the length descriptor rejects a
  // lower level than the symbol's (its word is valid at every lower level too).
  const otherLevels = [...new Set(said.lvs.filter((v) => v % 3 === lv % 3).map((v) => Math.floor(v / 3)))].filter((v) => v !== level);
  // No row line at either end (thin rows' indicators misread): the rows evenly between the
  // fitted top and bottom edges the plane was straightened on (docs/analysis-journal.md,
  // "Licence backs: thin rows read with their neighbours' share taken out, and placed between the fitted edges").
  const edges = edgeLine(y0, y1, rows);
  const placed = endLines(
    found.map((f) => rowLine(f.t, f.y)),
    rows,
  ) ?? { lines: [edges, edges] as const };
  const thin = rowModules(grid, placed.lines) <= THIN_ROW_MODULES;
  const unmix = thin ? UNMIX_SHARE : 0;
  const at = (lines: readonly [RowLine, RowLine]): SoftLayout => ({
    plane,
    grid,
    rows,
    level,
    otherLevels,
    yAt: placeRows(plane, grid, rows, lines),
    thin,
    unmix,
  });
  const { own } = placed;
  return { ...at(placed.lines), ...(own ? { ownEnds: () => at(own) } : {}) };
}

/**
 * The y of each row boundary across the symbol: the ends' lines, and at a third and two thirds
 * of its width the rows their scanlines name (inside the symbol the rows can bend away from the
 * straight line between its ends: the edges it was straightened on are fitted, not known).
 */
function placeRows(plane: GreyPlane, grid: Grid, rows: number, [l, r]: readonly [RowLine, RowLine]): (row: number, x: number) => number {
  const c = grid.columns;
  const { height } = plane;
  const ends = [17, 17 + 17 * (c + 1)] as const;
  const xl = grid.at(ends[0] + 8.5);
  const xr = grid.at(ends[1] + 8.5);
  // Each scanline's best cluster (row mod 3) names its row next to where the ends put it.
  const anchors: { x: number; a: number; b: number }[] = [{ x: xl, ...l }];
  for (const j of [Math.ceil(c / 3), Math.ceil((2 * c) / 3)]) {
    if (j < 1 || j > c) continue;
    const m0 = 17 + 17 * j;
    const x = grid.at(m0 + 8.5);
    const f = (x - xl) / (xr - xl);
    const a = l.a * (1 - f) + r.a * f;
    const b = l.b * (1 - f) + r.b * f;
    const shift = columnShift(plane, grid, m0, rows, (row) => a + b * row);
    const t: number[] = [];
    const ys: number[] = [];
    for (let y = Math.max(1, Math.floor(a)); y < Math.min(height - 2, a + b * rows); y += 2) {
      const p = bandProfile(
        plane,
        () => y - 1,
        () => y + 2,
      );
      let best = -2;
      let second = -2;
      let k = -1;
      for (let q = 0; q < 3; q++) {
        const rd = readCodeword(p, grid, m0, q, [shift]);
        if (!rd) continue;
        if (rd.score > best) {
          second = Math.max(best, rd.score - rd.margin);
          best = rd.score;
          k = q;
        } else second = Math.max(second, rd.score);
      }
      if (k < 0 || best - second < 0.03) continue;
      const predicted = (y + 0.5 - a) / b - 0.5;
      // Of the three rows round the predicted one, exactly one has this cluster.
      const base = Math.round(predicted);
      const row = [base - 1, base, base + 1].find((x) => ((x % 3) + 3) % 3 === k)!;
      if (row < 0 || row >= rows) continue;
      t.push(row + 0.5);
      ys.push(y + 0.5);
    }
    const line = rowLine(t, ys);
    if (line && Math.abs(line.b - b) < 0.15 * b) anchors.push({ x, a: line.a, b: line.b });
  }
  anchors.push({ x: xr, ...r });
  return (row: number, x: number): number => {
    let i = 0;
    while (i < anchors.length - 2 && x > anchors[i + 1]!.x) i++;
    const p = anchors[i]!;
    const q = anchors[i + 1]!;
    const f = (x - p.x) / (q.x - p.x);
    return (p.a + p.b * row) * (1 - f) + (q.a + q.b * row) * f;
  };
}

/** The symbol decoded at its level as read, else at each of `others` in turn. */
function decodeAtLevels(symbol: SoftSymbol, others: readonly number[]): string | null {
  for (const level of [symbol.level, ...others]) {
    const text = decodeReads({ ...symbol, level });
    if (text !== null) return text;
  }
  return null;
}

function decodeReads({ reads, rows, columns, level }: SoftSymbol): string | null {
  const k = 2 ** (level + 1);
  const n = rows * columns;
  if (k >= n) return null;
  const word = reads.map((rd) => rd?.value ?? 0);
  // A quarter of the error-correction codewords (at least 4) stays unspent: a word that needs
  // them all could have been corrected into another valid word.
  const margin = Math.max(4, Math.ceil(k / 4));
  const order = reads.map((rd, i) => [rd ? rd.margin : -1, i] as const).sort((a, b) => a[0] - b[0]);
  for (let e = 0; e <= k - margin; e += Math.max(1, Math.floor(k / 16))) {
    const fixed = correctErasures(
      word,
      k,
      order.slice(0, e).map(([, i]) => i),
      margin,
    );
    if (!fixed) continue;
    const data = fixed.word.slice(0, n - k);
    return data[0] === n - k ? codewordsToText(data) : null;
  }
  return null;
}
