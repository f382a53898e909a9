/**
 * The MRZ fallback that predates the locator (mrz-locate.ts): the lowest wide text rows of the
 * deskewed page read as an MRZ, then of the page levelled by its rows (mrz-bands.ts).
 */
import { type OcrEngineKind } from '../engines.js';
import { cropGrey, stretchGrey, type GreyPlane } from '../raster.js';
import { estimateSkew } from './barcode.js';
import { type LocatedMrz } from './mrz-locate.js';
import { pickMrzLines, readMrzLines, type MrzResult } from './mrz-parse.js';
import { seenAt } from './mrz-align.js';
import { ocrBand } from './mrz-ocr.js';
import { bandsOf, levelled, rotate, textBands } from './mrz-bands.js';
import { mrzEngines, withDoubts, withGlyphs } from './mrz-judge.js';

/**
 * A valid reading of the levelled page's lowest rows, with what the other engines read there
 * and the font's word on its name letters (mrz-font-witness.ts): on development `wide` 1 the
 * OCR-B model read VIKTOR as VYVIKTOR with every check holding and only itself as a pass.
 */
async function witnessedBand(
  g: GreyPlane,
  band: readonly [number, number],
  lineHeight: number,
  read: MrzResult,
  passes: string[][],
  others: readonly OcrEngineKind[],
): Promise<MrzResult> {
  const [top, bottom] = band;
  for (const engine of others) {
    const lines = pickMrzLines(await ocrBand(g, top, bottom, lineHeight, engine));
    if (lines) passes.push(lines);
  }
  const pad = Math.round(lineHeight * 0.8);
  const plane = cropGrey(g, 0, top - pad, g.width, bottom - top + 2 * pad);
  const quad = [
    { x: 0, y: top },
    { x: g.width, y: top },
    { x: g.width, y: bottom },
    { x: 0, y: bottom },
  ] as const;
  const zone: LocatedMrz = { plane, lineHeight, lines: read.data!.lines.length, quad };
  return (await withGlyphs(zone, withDoubts({ ...read, passes }))) ?? read;
}

/**
 * The lowest wide rows of the deskewed page (the search before issue 20's locator; a fallback).
 * When they read no valid MRZ, the page is levelled by its rows rather than by the skew estimate,
 * and its weaker edges count (mrz-bands.ts): development passports with the MRZ set wide were
 * left unread with a legible MRZ, the estimate 3-4 degrees off or the strokes too soft.
 */
export async function readBandedMrz(input: GreyPlane, today: Date): Promise<MrzResult> {
  // Stretched first: the band finder's edge threshold is absolute, and a dim page has no edge that strong.
  const page = stretchGrey(input);
  const skew = estimateSkew(input);
  const g = await rotate(page, -skew);
  const first = await readBands(g, textBands(g), today);
  if (first.data?.valid) return first;
  const { g: level, turn } = await levelled(page, skew);
  const bands = bandsOf(level);
  // The same page and the same rows as the first attempt: nothing new to read.
  if (Math.abs(turn) < 0.3 && bands.length >= 2 && textBands(level).length >= 2) return first;
  const again = await readBands(level, bands, today, true);
  return again.data?.valid ? again : first;
}

/**
 * The MRZ read from the lowest of `bands` of page `g`, two, three then four of them. With
 * `byPitch`, the line height is also taken as half the distance between the lowest two bands
 * (OCR-B lines are set about two glyph heights apart) when that is more: a band is only the rows
 * a line's strokes cross, and on a soft capture that is half the glyph (development `wide` 1:
 * 9 px bands of 16 px glyphs, read at four times their size and not read).
 */
async function readBands(g: GreyPlane, bands: readonly [number, number][], today: Date, byPitch = false): Promise<MrzResult> {
  if (bands.length === 0) return { found: false, fields: {} };
  // Try the lowest 2 and 3 bands first, then widen upwards.
  const attempts: [number, number][] = [];
  for (const n of [2, 3, 4]) {
    if (bands.length >= Math.min(n, bands.length)) {
      const group = bands.slice(-n);
      attempts.push([group[0]![0], group[group.length - 1]![1]]);
    }
  }
  const heights = bands.map(([a, b]) => b - a).sort((a, b) => a - b);
  const low = bands.slice(-2);
  const pitch = low.length === 2 ? (low[1]![0] + low[1]![1] - low[0]![0] - low[0]![1]) / 2 : 0;
  const lineHeight = Math.max(heights[heights.length >> 1]!, byPitch ? pitch / 2 : 0);
  // The OCR-B model first (it reads G, 6, < and the rest of the font as they are, where the
  // legacy engine misreads G as 6 in names that no check digit covers); the legacy engine is
  // the fallback, and the only engine when the model was not installed.
  const engines = mrzEngines();
  // On the levelled page, each engine also reads the band in grey: the table and the corners the
  // turn opened either side of a page whose MRZ runs close to its edge stretch the band's range,
  // and binarised at mid-grey its soft strokes broke (development-variant `wide` 1: noise
  // binarised, read exactly by the OCR-B model in grey).
  const reads: [OcrEngineKind, boolean][] = engines.flatMap((e): [OcrEngineKind, boolean][] =>
    byPitch
      ? [
          [e, true],
          [e, false],
        ]
      : [[e, true]],
  );
  for (const [top, bottom] of attempts) {
    let best: MrzResult | null = null;
    let sawFiller = false;
    const passes: string[][] = [];
    for (const [engine, binarise] of reads) {
      const text = await ocrBand(g, top, bottom, lineHeight, engine, binarise);
      // An MRZ always has filler '<'s; without any, the lowest lines are ordinary text.
      if (!text.includes('<')) continue;
      sawFiller = true;
      const lines = pickMrzLines(text);
      if (lines) passes.push(lines);
      const read = lines && readMrzLines(lines, today, seenAt(lines, [lines]));
      if (!read) continue;
      if (read.data!.valid)
        return byPitch
          ? await witnessedBand(g, [top, bottom], lineHeight, read, passes, engines.slice(engines.indexOf(engine) + 1))
          : withDoubts({ ...read, passes });
      if (!best || read.data!.failing_checks.length < best.data!.failing_checks.length) best = read;
    }
    if (best) return { ...best, passes };
    if (!sawFiller) break;
  }
  return { found: false, fields: {} };
}
