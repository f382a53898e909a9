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
const MRZ_CHARS = `${DIGITS}${LETTERS}<`;

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

/** A line's character grid: the centre of character k is at (`a` + `b`·k, `y`). */
interface Grid {
  readonly a: number;
  readonly b: number;
  readonly y: number;
}

/**
 * Name letters of `lines` (a valid MRZ read on zone `g`) that another OCR-B capital fits better
 * than the letter taken, by {@link FONT_MARGIN}. `passes` are the OCR passes' readings: letters
 * every pass read alike set the zone's blur and scale. Empty when the zone does not fit the font.
 */
export async function fontDoubts(g: GreyPlane, lineHeight: number, lines: readonly string[], passes: readonly (readonly string[])[]): Promise<FontDoubt[]> {
  const cells = zoneCells(g, lines, lineHeight);
  const plane = new CorrelationPlane(g);
  const rows = cells.filter((row): row is NonNullable<typeof row> => row !== null && row.length >= 2);
  if (rows.length === 0) return [];
  // The lines share their pitch: the glyphs the grids are searched with are drawn once.
  const first = rows.reduce((s, row) => s + (row[row.length - 1]!.x0 - row[0]!.x0) / (row.length - 1), 0) / rows.length;
  const coarseSet = templateSet(await drawGlyphs(MRZ_CHARS, first), 1);
  const grids = cells.map((row, li) =>
    row && row.length >= 2 ? fitGrid(plane, coarseSet, lines[li]!, first, (row[0]!.x0 + row[0]!.x1) / 2, (row[0]!.y0 + row[0]!.y1) / 2) : null,
  );
  const fitted = grids.filter((gr): gr is Grid => gr !== null);
  if (fitted.length === 0) return [];
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
  if (sample.length < MIN_GRID_POINTS) return [];
  const centre = (li: number, col: number): [number, number] => [grids[li]!.a + grids[li]!.b * col, grids[li]!.y];
  const reach = Math.max(1, Math.round(pitch * 0.15));
  const score = (set: TemplateSet, c: string, li: number, col: number): number => {
    const [x, y] = centre(li, col);
    return plane.best(set.get(c) ?? [], x, y, reach, 1).score;
  };
  // The capture's blur, then its scale: the setting under which the surest letters fit their glyphs best.
  const sampleChars = new Set(sample.map((p) => p.c));
  const fitOf = (set: TemplateSet): number => sample.reduce((s, p) => s + score(set, p.c, p.line, p.column), 0) / sample.length;
  const drawn = new Map<number, Awaited<ReturnType<typeof drawGlyphs>>>();
  const drawnAt = async (scale: number) => drawn.get(scale) ?? drawn.set(scale, await drawGlyphs(LETTERS + DIGITS, pitch * scale)).get(scale)!;
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
  if (chosen.fit < MIN_FONT_FIT) return [];
  const letters = templateSet(await drawnAt(chosen.scale), chosen.sigma, new Set(LETTERS));
  const doubts: FontDoubt[] = [];
  lines.forEach((line, li) => {
    if (!grids[li]) return;
    [...line].forEach((c, col) => {
      if (!/[A-Z]/.test(c) || fieldAt(lines.length, line.length, li, col).field !== 'names') return;
      const scores: Record<string, number> = {};
      for (const l of LETTERS) scores[l] = score(letters, l, li, col);
      const [best, top] = Object.entries(scores).sort((x, y) => y[1] - x[1])[0]!;
      if (best !== c && top > scores[c]! + FONT_MARGIN) doubts.push({ line: li, column: col, chosen: c, likeness: best, scores });
    });
  });
  return doubts;
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
function fitGrid(plane: CorrelationPlane, set: TemplateSet, line: string, pitch: number, x0: number, cy: number): Grid | null {
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
  for (let b = pitch * 0.85; b <= pitch * 1.15; b += pitch * 0.004)
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
    fit = leastSquares(used);
    const f = fit;
    const kept = points.filter((p) => Math.abs(p.x - (f.a + f.b * p.k)) <= pitch / 4);
    if (kept.length === used.length) break;
    used = kept;
  }
  if (!fit || used.length < MIN_GRID_POINTS) return null;
  const ys = used.map((p) => p.y).sort((p, q) => p - q);
  return { a: fit.a, b: fit.b, y: ys[Math.floor(ys.length / 2)]! };
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
