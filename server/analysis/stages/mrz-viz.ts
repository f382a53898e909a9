/**
 * The printed page beside the MRZ (the visual inspection zone, VIZ) as a witness for the MRZ
 * characters its own OCR passes did not agree on (mrz-doubt.ts). The page OCR reads the VIZ
 * with another engine, in another font and at another size, so its errors are not the MRZ
 * passes' errors: a name or a document number it prints exactly as the MRZ holds it vouches for
 * that value, and where the passes disagreed on a name letter, the reading the VIZ prints is
 * taken. Nothing is read again: the page OCR has already run for every page.
 */
import { seenAt } from './mrz-align.js';
import { applyDoubts, MrzDoubtKind, mrzDoubts, NAME_LOOKALIKES, type MrzDoubt } from './mrz-doubt.js';
import { readMrzLines, type MrzResult } from './mrz-parse.js';

/** Shorter tokens say nothing: a one- or two-letter name is also a page's stray word. */
const MIN_TOKEN = 3;
/** Alternatives tried per name token (the product of the readings at its doubted letters). */
const MAX_CANDIDATES = 64;

/**
 * The words the page OCR read outside the MRZ, upper-cased, split on anything but letters and
 * digits. A line with a filler `<` or a run of 25+ characters is the MRZ read as text (another
 * reading of the same print, not a witness), and is left out.
 */
export function vizWords(lines: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const up of vizLines(lines)) {
    // The MRZ leaves a name's apostrophe out (ICAO 9303: O'CONNOR is OCONNOR), so the page's
    // words count with it dropped as well as split at it.
    for (const text of [up, up.replace(APOSTROPHES, '')]) for (const w of text.split(/[^A-Z0-9]+/)) if (w.length >= MIN_TOKEN) words.add(w);
  }
  return words;
}

/** Apostrophes as a page prints them and OCR reads them (straight, curly, accents). */
const APOSTROPHES = /['\u2018\u2019`\u00b4]/g;

/** The page's lines outside the MRZ (see {@link vizWords}), upper-cased. */
export function vizLines(lines: readonly string[]): string[] {
  return lines.map((l) => l.toUpperCase()).filter((up) => !up.includes('<') && !/[A-Z0-9]{25,}/.test(up.replace(/\s+/g, '')));
}

/** The run of letters round `col` in an MRZ names line (its `<`-separated token), from `from` on (the names' first column). */
function tokenAt(line: string, col: number, from: number): { start: number; end: number } {
  let start = col;
  let end = col + 1;
  while (start > from && /[A-Z]/.test(line[start - 1]!)) start--;
  while (end < line.length && /[A-Z]/.test(line[end]!)) end++;
  return { start, end };
}

/** The document number as the MRZ holds it (fillers dropped), or null. */
function documentNumber(read: MrzResult): string | null {
  const n = read.data?.fields['documentNumber'];
  return n ? n.replace(/</g, '') : null;
}

/**
 * A valid MRZ with doubts, checked against the page's words: a doubted name token the page prints
 * (after taking, at each doubted letter, what some pass read there) and a doubted document number
 * the page prints are vouched for. Returns the reading unchanged when there is nothing to vouch.
 */
export function vouchByPage(read: MrzResult, pageLines: readonly string[], today: Date): MrzResult {
  if (!read.data?.valid || !read.doubts?.length || !read.passes) return read;
  const words = vizWords(pageLines);
  if (words.size === 0) return read;
  const lines = [...read.data.lines];
  const vouched = new Set<string>();
  const key = (d: { line: number; column: number }): string => `${d.line}:${d.column}`;
  const names = read.doubts.filter((d) => d.field === 'names');
  for (const d of names) {
    if (vouched.has(key(d))) continue;
    const line = lines[d.line]!;
    const { start, end } = tokenAt(line, d.column, lines.length === 3 ? 0 : 5);
    if (end - start < MIN_TOKEN) continue;
    const inToken = names.filter((o) => o.line === d.line && o.column >= start && o.column < end);
    const found = printedVariant(line.slice(start, end), start, inToken, words);
    if (found === null) continue;
    lines[d.line] = line.slice(0, start) + found + line.slice(end);
    for (const o of inToken) vouched.add(key(o));
  }
  const number = documentNumber(read);
  // Not a 6 or 1 the check digit cannot tell from G or L: the page's OCR reads a dim G as 6 as
  // the passes do (dim development passport 0's page printed 601813087 for G01813087).
  if (number && number.length >= MIN_TOKEN && words.has(number))
    for (const d of read.doubts) if (d.field === 'document_number' && d.kind !== MrzDoubtKind.CheckBlind) vouched.add(key(d));
  if (vouched.size === 0) return read;
  // Parsed again for fresh fields (a name letter may have changed); the doubts are taken again on
  // the lines taken, less those the page vouched for.
  const again = readMrzLines(lines, today, seenAt(lines, read.passes));
  if (!again?.data?.valid) return read;
  // The zone's glyph doubts (mrz-glyph.ts) are not recomputed from the passes: kept where the letter stands.
  const glyphs = read.doubts.filter((d) => d.kind === MrzDoubtKind.GlyphUnlike && lines[d.line]![d.column] === d.chosen);
  const left = [...mrzDoubts(again.data.lines, read.passes, read.lineRead), ...glyphs].filter((d) => !vouched.has(key(d)));
  return applyDoubts({ ...again, passes: read.passes, lineRead: read.lineRead, ...(read.zone ? { zone: read.zone } : {}) }, left);
}

/**
 * The token as the page prints it: the token itself, or one with each doubted letter replaced by
 * what some pass read there (or by the letter blur makes it of, {@link NAME_LOOKALIKES}), when
 * exactly one such variant is a page word, or, failing that, exactly one is a page word but for
 * one letter the passes did not doubt. Null otherwise.
 */
function printedVariant(token: string, start: number, doubts: readonly MrzDoubt[], words: ReadonlySet<string>): string | null {
  let variants = [token];
  for (const d of doubts) {
    // What some pass read there, and the letter blur makes the chosen one of (an O read Q by every pass).
    const lookAlike = NAME_LOOKALIKES[d.chosen];
    const options = [...new Set([d.chosen, ...d.read.filter((c) => /[A-Z]/.test(c)), ...(lookAlike ? [lookAlike] : [])])];
    variants = variants.flatMap((v) => options.map((c) => v.slice(0, d.column - start) + c + v.slice(d.column - start + 1)));
    if (variants.length > MAX_CANDIDATES) return words.has(token) ? token : null;
  }
  const unique = [...new Set(variants)];
  const printed = unique.filter((v) => words.has(v));
  if (printed.length > 0) return printed.length === 1 ? printed[0]! : null;
  // The page OCR misreads names too (`AVERICA`): a page word of the token's length that prints
  // every doubted letter as one variant has them, with one other letter misread (a letter the
  // passes agreed on), still vouches for that variant. Only on tokens long enough that one
  // letter of difference leaves four that match.
  if (token.length < MIN_FUZZY_TOKEN) return null;
  const cols = doubts.map((d) => d.column - start);
  const near = unique.filter((v) =>
    [...words].some((w) => w.length === v.length && cols.every((c) => w[c] === v[c]) && [...w].filter((c, k) => c !== v[k]).length <= 1),
  );
  return near.length === 1 ? near[0]! : null;
}

/** Shortest name token the page may vouch for with one other letter misread. */
const MIN_FUZZY_TOKEN = 5;
