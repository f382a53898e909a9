/**
 * The zone's own print as a witness for a name letter the OCR passes did not all read alike
 * (issue 20). The MRZ is set in one font at a fixed pitch, so the same letter elsewhere in the
 * zone, read alike by every pass, is a template of it at this capture's blur and scale. A
 * contested letter whose glyph matches another candidate's templates better than those of the
 * letter taken is doubted: the whole-zone passes share their scale and can outvote the one pass
 * that read it right (dev-variant passport 12: MARTINEZ read M by the binarised pass, R by the
 * grey and line passes, taken RARTINEZ with nothing doubted).
 */
import { alignTo, editDistance, seenAt } from './mrz-align.js';
import { lineBands } from './mrz-ocr.js';
import { fieldAt } from './mrz-fields.js';
import type { GreyPlane } from '../raster.js';

/** One character cell of a zone line: its column on the plane and its rows. */
interface Cell {
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
}

/**
 * The cells of each line of a rectified zone holding `lines` (the MRZ as read): each line's band
 * of glyph edges (mrz-ocr.ts), its ink from the first to the last column with edges, divided in
 * as many cells as the line has characters. Null for a line whose ink span is not about a line's
 * width of glyphs (a finger, a cut zone).
 */
export function zoneCells(g: GreyPlane, lines: readonly string[], lineHeight: number): (Cell[] | null)[] {
  return lineBands(g, lines.length, lineHeight).map(([top, bottom], li) => {
    const n = lines[li]!.length;
    const profile = new Float64Array(g.width);
    for (let y = top; y < bottom; y++) {
      const row = y * g.width;
      for (let x = 1; x < g.width; x++) profile[x] += Math.abs(g.data[row + x]! - g.data[row + x - 1]!);
    }
    const peak = [...profile].sort((a, b) => b - a)[Math.floor(g.width * 0.05)] ?? 0;
    if (peak <= 0) return null;
    let first = 0;
    let last = g.width - 1;
    while (first < g.width && profile[first]! < peak * 0.15) first++;
    while (last > first && profile[last]! < peak * 0.15) last--;
    // OCR-B's glyphs fill about 0.7 of the pitch: the span is 43 pitches and one glyph.
    const pitch = (last - first) / (n - 1 + GLYPH_FILL);
    if (pitch < (bottom - top) * 0.35 || pitch > (bottom - top) * 1.6) return null;
    const pad = Math.round((bottom - top) * 0.15);
    return Array.from({ length: n }, (_, k) => {
      const centre = first + pitch * (k + GLYPH_FILL / 2);
      return { x0: Math.round(centre - pitch / 2), x1: Math.round(centre + pitch / 2), y0: Math.max(0, top - pad), y1: Math.min(g.height, bottom + pad) };
    });
  });
}

/** Share of the pitch a glyph's ink spans. */
const GLYPH_FILL = 0.7;

/** A `w` × `h` window of a cell's pixels shifted by (`dx`, `dy`), zero-mean and unit-norm; null off the plane or flat. */
function patch(g: GreyPlane, c: Cell, dx: number, dy: number, w: number, h: number): Float64Array | null {
  const out = new Float64Array(w * h);
  let sum = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const px = c.x0 + x + dx;
      const py = c.y0 + y + dy;
      if (px < 0 || py < 0 || px >= g.width || py >= g.height) return null;
      const v = g.data[py * g.width + px]!;
      out[y * w + x] = v;
      sum += v;
    }
  const mean = sum / out.length;
  let norm = 0;
  for (let k = 0; k < out.length; k++) {
    out[k] = out[k]! - mean;
    norm += out[k]! * out[k]!;
  }
  if (norm <= 0) return null;
  const s = 1 / Math.sqrt(norm);
  for (let k = 0; k < out.length; k++) out[k] = out[k]! * s;
  return out;
}

/** Best correlation of cell `a` with cell `b` over shifts of up to a quarter pitch (the cells are cut at an estimated pitch). */
function likeness(g: GreyPlane, a: Cell, b: Cell): number {
  const w = Math.min(a.x1 - a.x0, b.x1 - b.x0);
  const h = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  const ref = patch(g, a, 0, 0, w, h);
  if (!ref) return -1;
  const reach = Math.max(1, Math.round(w / 4));
  const reachY = Math.max(1, Math.round(h / 10));
  let best = -1;
  for (let dy = -reachY; dy <= reachY; dy++)
    for (let dx = -reach; dx <= reach; dx++) {
      const other = patch(g, b, dx, dy, w, h);
      if (!other) continue;
      let s = 0;
      for (let k = 0; k < ref.length; k++) s += ref[k]! * other[k]!;
      best = Math.max(best, s);
    }
  return best;
}

/** Correlation by which another letter's templates must beat the taken letter's. */
export const GLYPH_MARGIN = 0.05;

/** A contested name letter whose glyph looks more like another candidate's print in the zone. */
export interface GlyphDoubt {
  readonly line: number;
  readonly column: number;
  readonly chosen: string;
  /** The candidate letter the glyph matched best. */
  readonly likeness: string;
  readonly scores: Readonly<Record<string, number>>;
}

/**
 * Name letters of `lines` that some pass read as another letter, whose glyph matches that
 * letter's templates (the same letter elsewhere in the zone, read alike by every pass) better
 * than the taken letter's by {@link GLYPH_MARGIN}. A letter with no template of either candidate
 * is not judged. `passes` are the OCR passes' readings of the zone.
 */
export function glyphDoubts(g: GreyPlane, lineHeight: number, lines: readonly string[], passes: readonly (readonly string[])[]): GlyphDoubt[] {
  const contested: { line: number; column: number; chosen: string; others: string[] }[] = [];
  lines.forEach((line, li) => {
    const names = nameReads(lines, li, passes);
    [...line].forEach((chosen, col) => {
      if (!/[A-Z]/.test(chosen) || fieldAt(lines.length, line.length, li, col).field !== 'names') return;
      const others = [...new Set((names[col] ?? []).filter((c) => /[A-Z]/.test(c) && c !== chosen))];
      if (others.length > 0) contested.push({ line: li, column: col, chosen, others });
    });
  });
  if (contested.length === 0) return [];
  const cells = zoneCells(g, lines, lineHeight);
  // Templates: letters every pass read alike (and read by at least two), by letter.
  const seen = seenAt(lines, passes);
  const templates = new Map<string, Cell[]>();
  lines.forEach((line, li) =>
    [...line].forEach((c, col) => {
      const cell = cells[li]?.[col];
      const read = seen[li]![col]!;
      if (!cell || !/[A-Z]/.test(c) || read.length < 2 || read.some((r) => r !== c)) return;
      templates.set(c, [...(templates.get(c) ?? []), cell]);
    }),
  );
  const doubts: GlyphDoubt[] = [];
  for (const t of contested) {
    const cell = cells[t.line]?.[t.column];
    if (!cell) continue;
    const score = (letter: string): number | null => {
      const own = (templates.get(letter) ?? []).filter((c) => c !== cell);
      return own.length === 0 ? null : Math.max(...own.map((c) => likeness(g, cell, c)));
    };
    const mine = score(t.chosen);
    if (mine === null) continue;
    const scores: Record<string, number> = { [t.chosen]: mine };
    for (const o of t.others) {
      const s = score(o);
      if (s !== null) scores[o] = s;
    }
    const best = Object.entries(scores).sort((a, b) => b[1] - a[1])[0]!;
    if (best[0] !== t.chosen && best[1] > mine + GLYPH_MARGIN) doubts.push({ line: t.line, column: t.column, chosen: t.chosen, likeness: best[0], scores });
  }
  return doubts;
}

/**
 * What each pass read at each character of line `li` up to its last name letter, aligned on
 * that stretch alone: a pass that read the filler run after the names as noise (`<NXNNMNX<`) is
 * too far from the whole line to align (mrz-align.ts), yet may be the one pass that read a
 * name letter right (dev-variant passport 12's M, read by the binarised pass only).
 */
function nameReads(lines: readonly string[], li: number, passes: readonly (readonly string[])[]): string[][] {
  const line = lines[li]!;
  let end = line.length;
  while (end > 0 && !/[A-Z]/.test(line[end - 1]!)) end--;
  const head = line.slice(0, end);
  const out: string[][] = [...head].map(() => []);
  if (head.length === 0) return out;
  for (const pass of passes) {
    const best = pass
      .map((l) => l.slice(0, end + 2))
      .reduce<string | null>((b, l) => (b === null || editDistance(head, l) < editDistance(head, b) ? l : b), null);
    if (best === null || editDistance(head, best) > head.length / 3) continue;
    alignTo(head, best).forEach((c, col) => {
      if (c !== null) out[col]!.push(c);
    });
  }
  return out;
}
