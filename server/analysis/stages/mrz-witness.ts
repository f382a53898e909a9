/**
 * The printed page as a witness for a valid MRZ's names, read a second way when the first did not
 * print them. No check digit covers a name, and on a small upload every OCR pass can misread one
 * letter alike (development passports with the MRZ set small: AALIYAH taken AALIYAR, accepted):
 * the page's visual zone is the only other print of the name. Tesseract's page reading, made for
 * every page, mostly drops the VIZ's small values on such uploads; PaddleOCR reads them more
 * often, at ~3 s of CPU, so it runs only when tesseract's page printed one of the names nowhere.
 */
import { repairByPage } from './mrz-viz-repair.js';
import { doubtByPage, vizWords, vouchByPage } from './mrz-viz.js';
import type { MrzResult } from './mrz-parse.js';

/** Shortest name token checked for on the page (as {@link doubtByPage} judges). */
const MIN_NAME = 5;

/** The name tokens of a TD3's names line with {@link MIN_NAME} letters or more. */
export function nameTokens(read: MrzResult): string[] {
  const lines = read.data?.lines;
  if (!lines || lines.length !== 2) return [];
  return lines[0]!
    .slice(5)
    .split('<')
    .filter((t) => t.length >= MIN_NAME && /^[A-Z]+$/.test(t));
}

/**
 * The MRZ read with the page as its witness (mrz-viz-repair.ts, then mrz-viz.ts): `pageLines`
 * first, and with `readAgain`'s lines added when the MRZ is valid and the page printed one of
 * its name tokens nowhere. `readAgain` returns null when it cannot read (the page alone then).
 */
export async function witnessedMrz(
  read: MrzResult,
  pageLines: readonly string[],
  today: Date,
  readAgain: () => Promise<readonly string[] | null>,
): Promise<MrzResult> {
  const repaired = repairByPage(read, pageLines, today);
  let lines = pageLines;
  if (repaired.data?.valid) {
    const words = vizWords(pageLines);
    if (nameTokens(repaired).some((t) => !words.has(t))) lines = [...pageLines, ...((await readAgain()) ?? [])];
  }
  return doubtByPage(vouchByPage(repaired, lines, today), repaired.doubts ?? [], lines);
}
