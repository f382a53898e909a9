/**
 * The OCR-B font as one more reader of a zone no OCR pass read valid (issue 20: blurred, small
 * uploads refused `BLUR_DETECTED` with their MRZ legible to a person). An MRZ is printed in one
 * font at a fixed pitch, so each character's cell is matched against every glyph the field
 * allows, drawn at the zone's own pitch, blur and scale (mrz-font-witness.ts), and the best
 * glyph taken. Its reading joins the OCR passes' vote (mrz.ts): it is taken only when the vote
 * then holds every check, and the doubt rules judge it like any other pass.
 */
import { fieldAt, STATE_CODE_FIELDS } from './mrz-fields.js';
import { holdsEveryCheck } from './mrz-parse.js';
import { fitFont, MRZ_CHARS } from './mrz-font-witness.js';
import type { GreyPlane } from '../raster.js';

const DIGITS = '0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Mean correlation of the zone's surest characters with their glyphs under which the font reads
 * nothing: a grid or blur that does not fit reads noise.
 */
export const MIN_READ_FIT = 0.6;

/** The characters ICAO 9303 allows in a field (the filler everywhere: unknown day, empty optional data). */
function allowed(lineCount: number, width: number, line: number, col: number): string {
  const { field, guard } = fieldAt(lineCount, width, line, col);
  if (field === 'sex') return 'MFX<';
  if (guard === 'numeric') return `${DIGITS}<`;
  if (guard === 'alphanumeric') return MRZ_CHARS;
  return `${LETTERS}<`;
}

/** Each character of a zone's lines scored against the glyphs its field allows (normalised correlation). */
export interface FontScores {
  /** Mean correlation of the zone's surest characters with their glyphs. */
  readonly fit: number;
  /** By line and column, each allowed character's correlation there. */
  readonly scores: readonly (readonly ReadonlyMap<string, number>[])[];
}

/**
 * Zone `g` scored by the font: each column of `lines` (the zone as the passes read it, which
 * places the grid) against every glyph its field allows. Null when a line's grid is not found.
 */
export async function fontScores(
  g: GreyPlane,
  lineHeight: number,
  lines: readonly string[],
  passes: readonly (readonly string[])[],
): Promise<FontScores | null> {
  const fit = await fitFont(g, lineHeight, lines, passes, true);
  if (!fit || fit.grids.some((gr) => gr === null)) return null;
  const set = await fit.templates(MRZ_CHARS);
  const scores = lines.map((line, li) =>
    [...line].map((_, col) => new Map([...allowed(lines.length, line.length, li, col)].map((c) => [c, fit.score(set, c, li, col)] as const))),
  );
  return { fit: fit.fit, scores };
}

/**
 * Zone `g` read by the font: each character of `lines` replaced by the glyph the field allows
 * that correlates best with its cell. Null when a line's grid is not found or the zone does not
 * fit the font.
 */
export async function fontReading(
  g: GreyPlane,
  lineHeight: number,
  lines: readonly string[],
  passes: readonly (readonly string[])[],
): Promise<string[] | null> {
  const scored = await fontScores(g, lineHeight, lines, passes);
  if (!scored || scored.fit < MIN_READ_FIT) return null;
  return scored.scores.map((row) => row.map((m) => [...m].reduce((b, e) => (e[1] > b[1] ? e : b))[0]).join(''));
}

/**
 * Least lead, in correlation, of a doubted character's glyph over every other glyph its field
 * allows for the font to vouch for it. On the development passports' doubted readings (stresses
 * dim, blur, small, hard, tight, wide, 2026-11-29) the doubted characters read wrong fitted their
 * glyph at most 0.013 better than any other (34 of 35 fitted another better), the right ones by
 * up to 0.18.
 */
export const VOUCH_MARGIN = 0.03;
/**
 * Lead by which another glyph fitting any character of the reading better says the font read
 * that character otherwise: the reading is then not vouched for at all (the wrong readings
 * above, doubted elsewhere, had one to 34 such characters).
 */
export const CONTRADICT_MARGIN = 0.06;
/** Least fit of the zone's surest characters for the font to vouch (as for its doubts, mrz-font-witness.ts). */
export const MIN_VOUCH_FIT = 0.75;

/**
 * Whether the font vouches for a valid reading's doubted characters: the zone fits the font, each
 * doubted character's glyph fits its cell better than any other its field allows by
 * {@link VOUCH_MARGIN}, and no character of the reading is read otherwise by the font by
 * {@link CONTRADICT_MARGIN}. The OCR passes disagree on a blurred glyph; the font, drawn at the
 * zone's own blur on a grid that follows the line, tells the candidates apart.
 */
export async function fontVouches(
  g: GreyPlane,
  lineHeight: number,
  lines: readonly string[],
  passes: readonly (readonly string[])[],
  doubted: readonly { readonly line: number; readonly column: number }[],
): Promise<boolean> {
  if (doubted.length === 0) return false;
  const scored = await fontScores(g, lineHeight, lines, passes);
  return scored !== null && vouchedBy(scored, lines, doubted);
}

/** {@link fontVouches} on a zone already scored (the scores hold every glyph the field allows, whatever `lines` took). */
function vouchedBy(scored: FontScores, lines: readonly string[], doubted: readonly { readonly line: number; readonly column: number }[]): boolean {
  if (scored.fit < MIN_VOUCH_FIT) return false;
  const lead = (li: number, col: number): number => leadOf(scored.scores[li]![col]!, lines[li]![col]!);
  for (let li = 0; li < lines.length; li++) for (let col = 0; col < lines[li]!.length; col++) if (lead(li, col) <= -CONTRADICT_MARGIN) return false;
  return doubted.every((d) => lead(d.line, d.column) >= VOUCH_MARGIN);
}

/** How much better `c` fits its cell than any other glyph its field allows (negative: another fits better). */
function leadOf(m: ReadonlyMap<string, number>, c: string): number {
  let other = -Infinity;
  for (const [x, v] of m) if (x !== c && v > other) other = v;
  return (m.get(c) ?? -1) - other;
}

/**
 * Lead by which the font's glyph must beat a doubted 6 or 1 for the font to read it as the
 * look-alike letter a check digit cannot tell from it (G = 16, L = 21 weigh as 6 and 1). On the
 * development passports (2026-11-29, 21:40-22:15 UTC) the doubted 6s and 1s printed as digits led
 * every other glyph by 0.06-0.10, none beaten; `dim` 0's G, read 6 by every pass, beat the 6 by 0.19.
 */
export const LOOKALIKE_MARGIN = 0.1;
/**
 * Lead by which the font's glyph must beat a doubted letter no check digit covers (a name, a
 * state code) for the font to read it as that glyph. Letters printed right were beaten by at
 * most 0.056 in the development zones (mrz-font-witness.ts), and the font's surest mistake seen,
 * `hard` 2's sex F fitting X by 0.12 (the sex field is left out), stays under it. The name
 * letters every pass misread alike on the development passports were beaten by the letter printed
 * by 0.10-0.23 (`dim` 12's M read R: 0.18); those under this margin stay doubted.
 */
export const UNCHECKED_MARGIN = 0.15;

/** Digits a check digit cannot tell from a letter, with that letter (mrz-doubt.ts `check_blind`). */
const CHECK_BLIND: Readonly<Record<string, string>> = { '6': 'G', '1': 'L' };

/**
 * A valid reading the font vouches for once it reads some of its doubted characters otherwise
 * (issue 20: genuine passports sent to review for a character every pass misread alike): each
 * doubted 6 or 1 of a field that allows letters whose look-alike letter's glyph fits clearly
 * better ({@link LOOKALIKE_MARGIN}; the corrected reading holds every check as the read one
 * did), and each doubted letter of a name or state code another letter fits far better
 * ({@link UNCHECKED_MARGIN}), is taken as the font reads it; the reading is returned when the
 * font then vouches for it as {@link fontVouches} does. `lines` as read when the font vouches
 * for them unchanged; null when it vouches for neither.
 */
export async function fontCorrected(
  g: GreyPlane,
  lineHeight: number,
  lines: readonly string[],
  passes: readonly (readonly string[])[],
  doubted: readonly { readonly line: number; readonly column: number }[],
): Promise<string[] | null> {
  if (doubted.length === 0) return null;
  const scored = await fontScores(g, lineHeight, lines, passes);
  if (!scored) return null;
  if (vouchedBy(scored, lines, doubted)) return [...lines];
  const out = lines.map((l) => [...l]);
  let changed = false;
  for (const d of doubted) {
    const m = scored.scores[d.line]![d.column]!;
    const chosen = lines[d.line]![d.column]!;
    const best = [...m].reduce((b, e) => (e[1] > b[1] ? e : b))[0];
    const beaten = -leadOf(m, chosen);
    const { field, guard } = fieldAt(lines.length, lines[d.line]!.length, d.line, d.column);
    const lookalike = guard === 'alphanumeric' && CHECK_BLIND[chosen] === best && beaten >= LOOKALIKE_MARGIN;
    // A letter (or a digit a state code cannot hold) for a letter, never a filler: one the font
    // reads as a letter would add one to a name (it fitted `blur` 7's optional-data fillers as 6
    // and L by 0.19-0.22).
    const unchecked = (field === 'names' || STATE_CODE_FIELDS.has(field)) && /[A-Z]/.test(best) && /[A-Z0-9]/.test(chosen) && beaten >= UNCHECKED_MARGIN;
    if (!lookalike && !unchecked) continue;
    out[d.line]![d.column] = best;
    changed = true;
  }
  const corrected = out.map((l) => l.join(''));
  return changed && holdsEveryCheck(corrected) && vouchedBy(scored, corrected, doubted) ? corrected : null;
}
