/**
 * Judging an MRZ reading once its passes are in: the vote over the passes (mrz-vote.ts) parsed,
 * the characters the passes do not vouch for doubted (mrz-doubt.ts), name letters judged by print
 * (mrz-glyph.ts, mrz-font-witness.ts) and doubts the OCR-B font vouches for cleared
 * (mrz-font-read.ts). Shared by the located-zone search (mrz.ts) and the lowest-rows fallback
 * (mrz-banded.ts).
 */
import { ocrbDataDir, type OcrEngineKind } from '../engines.js';
import { type LocatedMrz } from './mrz-locate.js';
import { readMrzLines, type MrzResult } from './mrz-parse.js';
import { seenAt } from './mrz-align.js';
import { applyDoubts, MrzDoubtKind, mrzDoubts, type MrzDoubt } from './mrz-doubt.js';
import { glyphDoubts } from './mrz-glyph.js';
import { fontDoubts } from './mrz-font-witness.js';
import { fontCorrected } from './mrz-font-read.js';
import { consensusReadings } from './mrz-vote.js';

/**
 * The MRZ from the readings of one zone by the OCR passes (best engine first): the line sets of
 * the vote (mrz-vote.ts) parsed and corrected in turn, the first valid one taken with what the
 * passes do not vouch for (mrz-doubt.ts), else the one failing fewest checks. Null when none parse.
 */
export function readPasses(reads: readonly (readonly string[])[], today: Date, lineRead?: readonly string[]): MrzResult | null {
  let best: MrzResult | null = null;
  for (const lines of consensusReadings(reads)) {
    const read = readMrzLines(lines, today, seenAt(lines, reads));
    if (!read) continue;
    if (read.data!.valid) return withDoubts({ ...read, passes: reads, lineRead });
    if (!best || read.data!.failing_checks.length < best.data!.failing_checks.length) best = read;
  }
  return best && { ...best, passes: reads, lineRead };
}

/** A valid MRZ with the characters its passes do not vouch for (mrz-doubt.ts) marked. */
export function withDoubts(read: MrzResult): MrzResult {
  if (!read.data?.valid || !read.passes) return read;
  return applyDoubts(read, mrzDoubts(read.data.lines, read.passes, read.lineRead));
}

/** OCR engines for the MRZ, best first (mrz-banded.ts). */
export const mrzEngines = (): OcrEngineKind[] => (ocrbDataDir() ? ['mrz-ocrb', 'mrz'] : ['mrz']);

/**
 * A valid reading with its name letters judged by print rather than OCR: a contested letter whose
 * glyph is more like another candidate's print in the zone (mrz-glyph.ts), and any name letter
 * another OCR-B capital fits better (mrz-font-witness.ts), is doubted. On a located zone
 * (`today` given), a reading whose every doubt the font vouches for is then taken clean.
 */
export async function withGlyphs(zone: LocatedMrz, read: MrzResult | null, today?: Date): Promise<MrzResult | null> {
  if (!read?.data?.valid || !read.passes) return read;
  const lines = read.data.lines;
  const had = new Set((read.doubts ?? []).map((d) => `${d.line}:${d.column}`));
  const found = [...glyphDoubts(zone.plane, zone.lineHeight, lines, read.passes), ...(await fontDoubts(zone.plane, zone.lineHeight, lines, read.passes))];
  const added: MrzDoubt[] = [];
  for (const d of found) {
    const key = `${d.line}:${d.column}`;
    if (had.has(key)) continue;
    had.add(key);
    added.push({ kind: MrzDoubtKind.GlyphUnlike, line: d.line, column: d.column, field: 'names', chosen: d.chosen, read: [d.chosen, d.likeness] });
  }
  const out = added.length === 0 ? read : applyDoubts(read, [...(read.doubts ?? []), ...added]);
  // A located zone only: the lowest-rows band is a strip of the page, not a rectified zone.
  return today ? fontVouched(zone, out, today) : out;
}

/**
 * A valid reading whose every doubt the OCR-B font vouches for (mrz-font-read.ts), taken clean:
 * parsed again for its fields' full confidence, with no doubt left. So is the reading with the
 * doubted characters the font reads clearly otherwise taken as it reads them (`fontCorrected`:
 * a 6 printed as G, a name's M every pass read R), when the font then vouches for it whole.
 */
async function fontVouched(zone: LocatedMrz, read: MrzResult | null, today: Date): Promise<MrzResult | null> {
  if (!read?.data?.valid || !read.passes || !read.doubts?.length) return read;
  const lines = await fontCorrected(zone.plane, zone.lineHeight, read.data.lines, read.passes, read.doubts);
  if (!lines) return read;
  const again = readMrzLines(lines, today, seenAt(lines, read.passes));
  if (!again?.data?.valid || again.data.lines.join() !== lines.join()) return read;
  return { ...again, passes: read.passes, ...(read.lineRead ? { lineRead: read.lineRead } : {}) };
}
