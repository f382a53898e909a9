/**
 * The font as a witness for the MRZ's name letters (issue 20). No check digit covers a name,
 * and on small uploads every OCR pass can misread a letter alike (development passports set in a
 * smaller MRZ: AALIYAH read AALIYAR, WILLIAMS read WILLIARS by every pass, accepted). The zone's
 * own print is no witness for a letter printed once (mrz-glyph.ts), but the font is: each name
 * letter's pixels are matched against every capital drawn in OCR-B at the zone's pitch and blur
 * (mrz-font.ts), and a letter another capital fits clearly better is doubted.
 */
import { seenAt } from './mrz-align.js';
import { fieldAt } from './mrz-fields.js';
import { zoneCells } from './mrz-glyph.js';
import { CorrelationPlane, drawGlyphs, templateSet, type TemplateSet } from './mrz-font.js';
import type { GreyPlane } from '../raster.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
export const MRZ_CHARS = `${DIGITS}${LETTERS}<`;

/** A name letter another OCR-B capital fits better than the letter taken. */
export interface FontDoubt {
  readonly line: number;
  readonly column: number;
  readonly chosen: string;
  /** The capital that fits best. */
  readonly likeness: string;
  readonly scores: Readonly<Record<string, number>>;
}

/**
 * Correlation by which another capital must fit better than the letter taken. In the 168
 * development zones (200 passports, as drawn and stressed) that fit the font (below), two
 * letters read right were beaten, by 0.054 and 0.056 (an M by K, a G by Q, in zones fitting at
 * 0.76 and 0.82); the wrong letters were beaten by 0.06-0.29, most often by the letter printed.
 */
export const FONT_MARGIN = 0.06;

/**
 * Mean correlation of the zone's surest letters with their own glyphs under which the zone is
 * not judged. The 8 development zones of 176 fitting under it (a grid not found, heavy blur)
 * had most of their right letters beaten by another capital.
 */
export const MIN_FONT_FIT = 0.75;

/** Least letters a line's grid is fitted on. */
const MIN_GRID_POINTS = 8;

/**
 * A line's character grid: the centre of character k is at (`a` + `b`·k, `y`); `bent`, when
 * tracked, each character's centre along a line a lens bowed (x, y by column).
 */
export interface Grid {
  readonly a: number;
  readonly b: number;
  readonly y: number;
  /** How many of the line's characters the grid was fitted on. */
  readonly support: number;
  readonly bent?: { readonly x: readonly number[]; readonly y: readonly number[] };
}

/**
 * Name letters of `lines` (a valid MRZ read on zone `g`) that another OCR-B capital fits better
 * than the letter taken, by {@link FONT_MARGIN}. `passes` are the OCR passes' readings: letters
 * every pass read alike set the zone's blur and scale. Empty when the zone does not fit the font.
 */
export async function fontDoubts(g: GreyPlane, lineHeight: number, lines: readonly string[], passes: readonly (readonly string[])[]): Promise<FontDoubt[]> {
  const fit = await fitFont(g, lineHeight, lines, passes);
  if (!fit || fit.fit < MIN_FONT_FIT) return [];
  const letters = await fit.templates(LETTERS);
  const doubts: FontDoubt[] = [];
  lines.forEach((line, li) => {
    if (!fit.grids[li]) return;
    [...line].forEach((c, col) => {
      if (!/[A-Z]/.test(c) || fieldAt(lines.length, line.length, li, col).field !== 'names') return;
      const scores: Record<string, number> = {};
      for (const l of LETTERS) scores[l] = fit.score(letters, l, li, col);
      const [best, top] = Object.entries(scores).sort((x, y) => y[1] - x[1])[0]!;
      if (best !== c && top > scores[c]! + FONT_MARGIN) doubts.push({ line: li, column: col, chosen: c, likeness: best, scores });
    });
  });
  return doubts;
}

/** The OCR-B font fitted to a zone: each line's grid, the blur and scale, and how well the surest characters fit them. */
export interface FontFit {
  /** Each line's character grid; null for a line whose grid was not found. */
  readonly grids: readonly (Grid | null)[];
  /** Mean correlation of the zone's surest characters with their glyphs at the chosen blur and scale. */
  readonly fit: number;
  /** The glyphs of `chars` at the zone's blur and scale. */
  templates(chars: string): Promise<TemplateSet>;
  /** Best correlation of character `c` of `set` near the grid's place for line `li`, column `col`. */
  score(set: TemplateSet, c: string, li: number, col: number): number;
}

/**
 * The font fitted to zone `g` holding `lines` (as read, valid or not): the lines' grids, then the
 * blur and scale under which the characters every pass read alike (`passes`) fit their glyphs
 * best. Null when no grid or too few sure characters are found.
 */
export async function fitFont(
  g: GreyPlane,
  lineHeight: number,
  lines: readonly string[],
  passes: readonly (readonly string[])[],
  bent = false,
): Promise<FontFit | null> {
  const cells = zoneCells(g, lines, lineHeight);
  const plane = new CorrelationPlane(g);
  const rows = cells.filter((row): row is NonNullable<typeof row> => row !== null && row.length >= 2);
  if (rows.length === 0) return null;
  // The lines share their pitch: the glyphs the grids are searched with are drawn once.
  const first = rows.reduce((s, row) => s + (row[row.length - 1]!.x0 - row[0]!.x0) / (row.length - 1), 0) / rows.length;
  const coarseSet = templateSet(await drawGlyphs(MRZ_CHARS, first), 1);
  const gridOf = (li: number, bentToo: boolean, pitch?: number, start?: number): Grid | null => {
    const row = cells[li];
    const straight =
      row && row.length >= 2 ? fitGrid(plane, coarseSet, lines[li]!, first, (row[0]!.x0 + row[0]!.x1) / 2, (row[0]!.y0 + row[0]!.y1) / 2, pitch) : null;
    return straight && bentToo ? { ...straight, bent: bentGrid(plane, coarseSet, lines[li]!.length, straight, first, start) } : straight;
  };
  let grids = lines.map((_, li) => gridOf(li, false));
  if (bent) {
    // The lines share their pitch and start: a names line that is mostly fillers fits a pitch
    // off by a few per cent, or the whole line a character over, as well as the right one
    // (development `hard` 11: 8.97 px against the number line's 9.33). The line the most
    // characters fitted is bent first; the others are fitted at its pitch and near its start.
    const strongest = grids.reduce<Grid | null>((b, gr) => (gr && (!b || gr.support > b.support) ? gr : b), null);
    const at = grids.indexOf(strongest);
    const lead = strongest && gridOf(at, true);
    if (lead) grids = grids.map((_, li) => (li === at ? lead : gridOf(li, true, lead.b, lead.bent!.x[0])));
  }
  const fitted = grids.filter((gr): gr is Grid => gr !== null);
  if (fitted.length === 0) return null;
  const pitch = fitted.reduce((s, gr) => s + gr.b, 0) / fitted.length;
  const seen = seenAt(lines, passes);
  const sure: { line: number; column: number; c: string }[] = [];
  lines.forEach((line, li) =>
    [...line].forEach((c, col) => {
      const read = seen[li]?.[col] ?? [];
      if (grids[li] && c !== '<' && read.length >= 2 && read.every((r) => r === c)) sure.push({ line: li, column: col, c });
    }),
  );
  const sample = spread(sure, CALIBRATION_LETTERS);
  if (sample.length < MIN_GRID_POINTS) return null;
  const centre = (li: number, col: number): [number, number] => {
    const gr = grids[li]!;
    return gr.bent ? [gr.bent.x[col]!, gr.bent.y[col]!] : [gr.a + gr.b * col, gr.y];
  };
  const reach = Math.max(1, Math.round(pitch * 0.15));
  const score = (set: TemplateSet, c: string, li: number, col: number): number => {
    const [x, y] = centre(li, col);
    return plane.best(set.get(c) ?? [], x, y, reach, 1).score;
  };
  // The capture's blur, then its scale: the setting under which the surest letters fit their glyphs best.
  const sampleChars = new Set(sample.map((p) => p.c));
  const fitOf = (set: TemplateSet): number => sample.reduce((s, p) => s + score(set, p.c, p.line, p.column), 0) / sample.length;
  const drawn = new Map<number, Awaited<ReturnType<typeof drawGlyphs>>>();
  const drawnAt = async (scale: number) => drawn.get(scale) ?? drawn.set(scale, await drawGlyphs(MRZ_CHARS, pitch * scale)).get(scale)!;
  let chosen = { fit: -Infinity, scale: 1, sigma: BLURS[0]! };
  for (const sigma of BLURS) {
    const fit = fitOf(templateSet(await drawnAt(1), sigma, sampleChars));
    if (fit > chosen.fit) chosen = { fit, scale: 1, sigma };
  }
  for (const scale of SCALES) {
    if (scale === 1) continue;
    const fit = fitOf(templateSet(await drawnAt(scale), chosen.sigma, sampleChars));
    if (fit > chosen.fit) chosen = { ...chosen, fit, scale };
  }
  return {
    grids,
    fit: chosen.fit,
    templates: async (chars) => templateSet(await drawnAt(chosen.scale), chosen.sigma, new Set(chars)),
    score,
  };
}

/** Template scales tried round the fitted pitch (the glyph fills its advance a little differently by printer). */
const SCALES = [0.94, 1, 1.06];
/** Gaussian blurs (px) tried: a sharp scan to a blurred phone photo. */
const BLURS = [0.6, 1, 1.5, 2, 2.6];
/** Letters the scale and blur are judged on. */
const CALIBRATION_LETTERS = 30;

/** At most `n` items of `list`, evenly spread over it. */
function spread<T>(list: readonly T[], n: number): T[] {
  if (list.length <= n) return [...list];
  return Array.from({ length: n }, (_, k) => list[Math.floor((k * list.length) / n)]!);
}

/**
 * Line `line`'s grid on the zone: the start and pitch under which the read characters, summed,
 * correlate best with their glyphs (a search over both: the cells cut from the line's ink span
 * are off by a whole character when a mark lengthens the span), then each character's best place
 * near it, fitted by least squares without the outliers (a misread letter fits nowhere).
 * Null when too few characters fit.
 */
function fitGrid(plane: CorrelationPlane, set: TemplateSet, line: string, pitch: number, x0: number, cy: number, fixedPitch?: number): Grid | null {
  const { g } = plane;
  // Each character's correlation along the line, at its best of a few rows (the band is estimated).
  const along = new Map<string, Float64Array>();
  for (const c of new Set(line)) {
    const t = set.get(c)?.[0];
    if (!t) continue;
    const row = new Float64Array(g.width).fill(-1);
    const y0 = Math.round(cy - t.h / 2);
    for (let x = 0; x < g.width; x++) {
      const left = Math.round(x - t.w / 2);
      for (let dy = -2; dy <= 2; dy++) row[x] = Math.max(row[x]!, plane.at(t, left, y0 + dy));
    }
    along.set(c, row);
  }
  let coarse = { s: -Infinity, a: x0, b: pitch };
  const pitches: number[] = [];
  if (fixedPitch) pitches.push(fixedPitch);
  else for (let b = pitch * 0.85; b <= pitch * 1.15; b += pitch * 0.004) pitches.push(b);
  for (const b of pitches)
    for (let a = x0 - 3 * pitch; a <= x0 + 3 * pitch; a += 0.5) {
      let s = 0;
      for (let k = 0; k < line.length; k++) {
        const x = Math.round(a + b * k);
        s += x >= 0 && x < g.width ? along.get(line[k]!)![x]! : -1;
      }
      if (s > coarse.s) coarse = { s, a, b };
    }
  const points: { k: number; x: number; y: number }[] = [];
  const reach = Math.max(1, Math.round(pitch * 0.2));
  [...line].forEach((c, k) => {
    if (c === '<') return;
    const found = plane.best(set.get(c) ?? [], coarse.a + coarse.b * k, cy, reach, 2);
    if (found.score >= 0.7) points.push({ k, x: found.x, y: found.y });
  });
  let used = points;
  let fit: { a: number; b: number } | null = null;
  for (let round = 0; round < 3 && used.length >= MIN_GRID_POINTS; round++) {
    fit = fixedPitch ? { a: used.reduce((t, p) => t + p.x - fixedPitch * p.k, 0) / used.length, b: fixedPitch } : leastSquares(used);
    const f = fit;
    const kept = points.filter((p) => Math.abs(p.x - (f.a + f.b * p.k)) <= pitch / 4);
    if (kept.length === used.length) break;
    used = kept;
  }
  if (!fit || used.length < MIN_GRID_POINTS) return null;
  const ys = used.map((p) => p.y).sort((p, q) => p - q);
  return { a: fit.a, b: fit.b, y: ys[Math.floor(ys.length / 2)]!, support: used.length };
}

/**
 * Each character's centre along a line a lens bowed (development `hard` captures: the pitch runs
 * from 10.2 px at one end of a line to 9.3 at the other, so a straight grid fitted on the middle
 * is a character and more off at the ends). The pitch is let change steadily along the line
 * (x quadratic in k): the start, pitch and change under which the best-fitting glyph of any
 * character at each column, summed, fits best; then each column's glyph searched near it, and
 * x and y fitted quadratic in k on those that fit, without the outliers. `start`: where another
 * line of the zone starts (the lines are set flush left), searched within half a pitch of it.
 */
function bentGrid(plane: CorrelationPlane, set: TemplateSet, n: number, grid: Grid, pitch: number, start?: number): { x: number[]; y: number[] } {
  const { g } = plane;
  // The best fit of any glyph centred at each x (a few rows either side of the straight grid's).
  const reachY = Math.max(2, Math.round(pitch * 0.3));
  const along = new Float64Array(g.width).fill(-1);
  for (const templates of set.values()) {
    const t = templates[0]!;
    const y0 = Math.round(grid.y - t.h / 2);
    for (let x = 0; x < g.width; x++) {
      const left = Math.round(x - t.w / 2);
      for (let dy = -reachY; dy <= reachY; dy++) along[x] = Math.max(along[x]!, plane.at(t, left, y0 + dy));
    }
  }
  let best = { s: -Infinity, a: grid.a, b: grid.b, c: 0 };
  for (let c = -0.02 * pitch; c <= 0.02 * pitch + 1e-9; c += 0.001 * pitch)
    for (let b = grid.b * 0.9; b <= grid.b * 1.1; b += grid.b * 0.004)
      for (
        let a = start === undefined ? grid.a - 2 * pitch : start - pitch / 2;
        a <= (start === undefined ? grid.a + 2 * pitch : start + pitch / 2);
        a += 0.5
      ) {
        let s = 0;
        for (let k = 0; k < n; k++) {
          const x = Math.round(a + b * k + c * k * k);
          s += x >= 0 && x < g.width ? along[x]! : -1;
        }
        if (s > best.s) best = { s, a, b, c };
      }
  const reach = Math.max(1, Math.round(pitch * 0.2));
  const points: { k: number; x: number; y: number }[] = [];
  for (let k = 0; k < n; k++) {
    const x = best.a + best.b * k + best.c * k * k;
    let found = { score: -1, x, y: grid.y };
    for (const templates of set.values()) {
      const f = plane.best(templates, x, grid.y, reach, reachY);
      if (f.score > found.score) found = f;
    }
    if (found.score >= TRACK_FIT) points.push({ k, x: found.x, y: found.y });
  }
  let fx: Quadratic = [best.a, best.b, best.c];
  let fy: Quadratic = [grid.y, 0, 0];
  let used = points;
  for (let round = 0; round < 3 && used.length >= MIN_BENT_POINTS; round++) {
    fx = quadratic(used.map((p) => [p.k, p.x] as const));
    fy = quadratic(used.map((p) => [p.k, p.y] as const));
    const [qx, qy] = [fx, fy];
    const kept = points.filter((p) => Math.abs(p.x - atK(qx, p.k)) <= pitch / 4 && Math.abs(p.y - atK(qy, p.k)) <= pitch / 3);
    if (kept.length === used.length) break;
    used = kept;
  }
  if (used.length < MIN_BENT_POINTS)
    [fx, fy] = [
      [best.a, best.b, best.c],
      [grid.y, 0, 0],
    ];
  return { x: Array.from({ length: n }, (_, k) => atK(fx, k)), y: Array.from({ length: n }, (_, k) => atK(fy, k)) };
}

/** Correlation at which a glyph counts as found (a blurred glyph read right fits 0.6-0.9). */
const TRACK_FIT = 0.6;
/** Least glyphs the bent grid is fitted on (three coefficients each way). */
const MIN_BENT_POINTS = 12;

/** c0 + c1·k + c2·k². */
type Quadratic = readonly [number, number, number];
const atK = (q: Quadratic, k: number): number => q[0] + q[1] * k + q[2] * k * k;

/** Least-squares quadratic through (k, v) points (normal equations, 3 × 3, Cramer's rule). */
function quadratic(points: readonly (readonly [number, number])[]): Quadratic {
  const s = [0, 0, 0, 0, 0];
  const t = [0, 0, 0];
  for (const [k, v] of points)
    for (let i = 0, p = 1; i < 5; i++, p *= k) {
      s[i]! += p;
      if (i < 3) t[i]! += p * v;
    }
  const m = [
    [s[0]!, s[1]!, s[2]!],
    [s[1]!, s[2]!, s[3]!],
    [s[2]!, s[3]!, s[4]!],
  ];
  const det = (a: number[][]): number =>
    a[0]![0]! * (a[1]![1]! * a[2]![2]! - a[1]![2]! * a[2]![1]!) -
    a[0]![1]! * (a[1]![0]! * a[2]![2]! - a[1]![2]! * a[2]![0]!) +
    a[0]![2]! * (a[1]![0]! * a[2]![1]! - a[1]![1]! * a[2]![0]!);
  const d = det(m);
  if (Math.abs(d) < 1e-9) return [t[0]! / Math.max(1, s[0]!), 0, 0];
  const col = (j: number): number => det(m.map((row, i) => row.map((x, c) => (c === j ? t[i]! : x))));
  return [col(0) / d, col(1) / d, col(2) / d];
}

function leastSquares(points: readonly { k: number; x: number }[]): { a: number; b: number } {
  const n = points.length;
  const mk = points.reduce((s, p) => s + p.k, 0) / n;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.k - mk) * (p.x - mx);
    sxx += (p.k - mk) ** 2;
  }
  const b = sxx > 0 ? sxy / sxx : 0;
  return { a: mx - b * mk, b };
}
