/**
 * Machine Readable Zone: find the zone (mrz-locate.ts, then a row search as a fallback), OCR it
 * with the OCR-B model and tesseract's legacy engine with an MRZ whitelist (the general LSTM
 * engine reads runs of `<` as K/L/C, architecture.md "Known traps"), and parse and correct what
 * was read (mrz-parse.ts). An MRZ whose checks still fail after correction is reported with
 * `valid: false` and the failing checks; the pipeline then fails the job naming them
 * (architecture.md, "Document analysis conventions").
 */
import { ocrbDataDir, type OcrEngineKind } from '../engines.js';
import { stretchGrey, type GreyPlane } from '../raster.js';
import { locateMergedMrz, locateMrz, type LocatedMrz } from './mrz-locate.js';
import { pickMrzLines, readMrzLines, type MrzResult } from './mrz-parse.js';
import { seenAt } from './mrz-align.js';
import { deblurZone } from './mrz-deblur.js';
import { fontReading } from './mrz-font-read.js';
import { greyBuffer, ocrBand, ocrLines, SMOOTH_SIGMA } from './mrz-ocr.js';
import { readBandedMrz } from './mrz-banded.js';
import { readPasses, withDoubts, withGlyphs } from './mrz-judge.js';

export { textBands } from './mrz-bands.js';
export { readPasses } from './mrz-judge.js';

export { correctMrz, mrzToProcessor, pickMrzLines, readMrz, type MrzData, type MrzResult } from './mrz-parse.js';

/**
 * The MRZ stage on a grey working image. Looks at the lowest wide text lines (where every ICAO
 * document has its MRZ), OCRs them, and parses and corrects what it reads.
 */
export async function runMrz(input: GreyPlane, today: Date): Promise<MrzResult> {
  const first = await searchMrz(input, today);
  return first.read?.data?.valid ? first.read : finishMrz(input, today, first);
}

/** The first MRZ search: long parallel lines located on the page and read. */
export interface MrzSearch {
  /** What the located zones read as (null: no zone read as an MRZ, or none found). */
  readonly read: MrzResult | null;
  /** Whether the locator found line groups at all. */
  readonly zonesFound: boolean;
  /** The stretched page the zones were found on. */
  readonly page: GreyPlane;
}

/**
 * The MRZ's lines located and read (mrz-locate.ts): on a clean passport this is the whole
 * search. When it reads nothing valid, {@link finishMrz} runs the fallbacks; the pipeline skips
 * them on a page the OCR already read as a licence front with nothing MRZ-like on it.
 */
export async function searchMrz(input: GreyPlane, today: Date): Promise<MrzSearch> {
  const page = stretchGrey(input);
  const zones = locateMrz(page);
  return { read: await readZones(zones, today), zonesFound: zones.length > 0, page };
}

/**
 * The fallbacks after {@link searchMrz}: the page smoothed (a dim, noisy capture), an MRZ whose
 * lines merged with the page's edge (mrz-locate.ts), then the lowest wide rows.
 */
export async function finishMrz(input: GreyPlane, today: Date, first: MrzSearch): Promise<MrzResult> {
  const { read: located, deblur } = await readLocatedMrz(first, today);
  if (located?.data?.valid) return located;
  const merged = await readMergedMrz(first.page, today);
  if (merged?.data?.valid) return merged;
  const banded = await readBandedMrz(input, today);
  if (banded.found && banded.data?.valid) return banded;
  // The smoothed zone deconvolved only now: ~1.1 s of CPU that a page whose lowest rows read
  // valid no longer pays (docs/performance.md, "The bench on a quiet machine").
  const deblurred = deblur ? await deblur() : null;
  if (deblurred) return deblurred;
  if (banded.found && !located) return banded;
  return located ?? banded;
}

/** An MRZ merged with the page's edge (mrz-locate.ts), found on the page and, failing that, on it smoothed (as {@link readLocatedMrz}). */
async function readMergedMrz(page: GreyPlane, today: Date): Promise<MrzResult | null> {
  const plain = await readZones(locateMergedMrz(page), today);
  if (plain?.data?.valid) return plain;
  return readZones(locateMergedMrz(await smoothGrey(page, SMOOTH_SIGMA), page), today, true);
}

/**
 * The MRZ found as a group of long parallel text lines and rectified (mrz-locate.ts): the
 * reading that holds under perspective; its reading null when no such group reads as an MRZ,
 * and the smoothed zone's deconvolution, when one is left to try, for the caller.
 */
async function readLocatedMrz(first: MrzSearch, today: Date): Promise<ZonesRead> {
  const { read: plain, zonesFound, page } = first;
  if (plain?.data?.valid) return { read: plain };
  // Line groups found and none read as an MRZ: a page of ordinary text (a licence front).
  if (zonesFound && !plain) return { read: null };
  // A dim page stretched is mostly sensor noise: its edges fill every block and no line shape
  // is left (dev passports photographed dimmer and noisier: no zone found on 3 of 4). Smoothed,
  // the lines show again; the zones are cut from the page as it was and read smoothed too.
  const smooth = await smoothGrey(page, SMOOTH_SIGMA);
  // The deconvolved re-read (see readZones) once per page: here only when the plain search read
  // nothing, and left to the caller, after the lowest rows.
  const { read: again, deblur } = await zonesRead(locateMrz(smooth, 2, page), today, true);
  if (again?.data?.valid) return { read: again };
  if (!plain) return { read: again, ...(deblur ? { deblur } : {}) };
  return { read: !again || plain.data!.failing_checks.length <= again.data!.failing_checks.length ? plain : again };
}

async function smoothGrey(g: GreyPlane, sigma: number): Promise<GreyPlane> {
  const { data, info } = await (await greyBuffer(g)).blur(sigma).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Reads located zones, best first: the first valid reading. Only one zone is read again at other
 * heights (see {@link rereadZone}): the first whose passes read it valid with a doubt, else the one
 * whose passes came closest (fewest failing checks). Each re-read is an OCR-B pass, and on a page
 * that never reads (a dim, blurred, small upload) every candidate zone re-read twice made up
 * most of the two minutes such a page took under load.
 */
async function readZones(zones: readonly LocatedMrz[], today: Date, noisy = false): Promise<MrzResult | null> {
  const { read, deblur } = await zonesRead(zones, today, noisy);
  return read?.data?.valid || !deblur ? read : ((await deblur()) ?? read);
}

/**
 * A reading of located zones, and, when none read valid, the best zone's deconvolved re-read
 * (see {@link deblurredRead}) left for the caller to run: valid, or null.
 */
interface ZonesRead {
  readonly read: MrzResult | null;
  readonly deblur?: () => Promise<MrzResult | null>;
}

/** {@link readZones} with the deconvolution left to the caller. */
async function zonesRead(zones: readonly LocatedMrz[], today: Date, noisy: boolean): Promise<ZonesRead> {
  let best: { zone: LocatedMrz; first: ZoneRead } | null = null;
  for (const zone of zones) {
    const first = await readZone(zone, today, noisy);
    const read = first.read;
    if (read?.data?.valid) return { read: at(zone, await withGlyphs(zone, read.doubts?.length ? await rereadZone(zone, first, today, noisy) : read, today)) };
    const failing = (r: ZoneRead): number => r.read?.data?.failing_checks.length ?? Infinity;
    if (!best || failing(first) < failing(best.first) || (!best.first.read && first.reads.length > best.first.reads.length)) best = { zone, first };
  }
  if (!best) return { read: null };
  const { zone, first } = best;
  const reread = await rereadZone(zone, first, today, noisy);
  const read = at(zone, await withGlyphs(zone, reread, today));
  if (reread?.data?.valid) return { read };
  return { read, deblur: async () => at(zone, await withGlyphs(zone, await deblurredRead(zone, reread, first, today), today)) };
}

/**
 * A zone whose passes read no valid MRZ (a blurred capture: strokes run together, C reads O, 8
 * reads 6) deconvolved (mrz-deblur.ts) and read again by the same passes; its readings join the
 * earlier ones in the vote, so a character is vouched for only when the passes of both agree;
 * failing that, the zone read by the OCR-B font (mrz-font-read.ts). Taken only when it then passes
 * every check; null otherwise.
 */
async function deblurredRead(zone: LocatedMrz, prior: MrzResult | null, first: ZoneRead, today: Date): Promise<MrzResult | null> {
  if (!ocrbDataDir()) return null;
  const sharpened = await deblurZone(zone);
  const again = await readZone(sharpened, today, false);
  const reads = [...(prior?.passes ?? first.reads), ...again.reads];
  const lineRead = first.lineRead ?? again.lineRead;
  const read = readPasses(reads, today, lineRead);
  if (read?.data?.valid) return read;
  // Still no valid vote: the font reads the zone (mrz-font-read.ts), the last voter. (The
  // deconvolved zone fits the font worse: its grid was found on none of `hard` 2 and 11.)
  const lines = (read ?? prior)?.data?.lines;
  if (!lines) return null;
  const font = await fontReading(zone.plane, zone.lineHeight, lines, reads);
  if (!font) return null;
  const all = [...reads, font];
  // The font's own reading first: where every OCR vote failed a check and the font's reading,
  // corrected as any pass's is, holds them all, the font read this zone best (`hard` 11: the
  // vote with it held by a check-digit coincidence, 8 and O for 6 and 0). Its characters are
  // judged by the doubt rules over every pass.
  const own = readMrzLines(font, today, seenAt(font, all));
  if (own?.data?.valid) return withDoubts({ ...own, passes: all, lineRead });
  const withFont = readPasses(all, today, lineRead);
  return withFont?.data?.valid ? withFont : null;
}

/** A reading with the corners of the zone it was read in. */
const at = (zone: LocatedMrz, read: MrzResult | null): MrzResult | null => read && { ...read, zone: zone.quad };

/** One zone's first reading and the pass readings it came from. */
interface ZoneRead {
  readonly read: MrzResult | null;
  readonly reads: readonly (readonly string[])[];
  /** The zone read line by line (one of `reads`), when that pass read an MRZ. */
  readonly lineRead?: readonly string[];
}

/** One OCR pass over a zone: an engine over the whole zone (binarised or grey), or the OCR-B model line by line. */
type ZonePass = { readonly engine: OcrEngineKind; readonly binarise: boolean } | 'lines';

/**
 * One zone read by every engine pass and the readings combined (mrz-vote.ts): the OCR-B model
 * binarised, then in grey (on a blurred capture the fixed threshold merges or breaks strokes
 * that the model tells apart in grey), then line by line at its best glyph height (mrz-ocr.ts),
 * then the legacy engine. Three OCR-B readings alike and valid are taken without the legacy
 * pass. The line-by-line reading runs on every page: the whole-zone passes can agree on a
 * wrong name letter that no check digit covers (development passport 11 uploaded small:
 * WILLIAMS read WILLIARS by every whole-zone pass, read right line by line).
 */
async function readZone(zone: LocatedMrz, today: Date, noisy: boolean): Promise<ZoneRead> {
  const attempts: ZonePass[] = ocrbDataDir()
    ? [{ engine: 'mrz-ocrb', binarise: true }, { engine: 'mrz-ocrb', binarise: false }, 'lines', { engine: 'mrz', binarise: true }]
    : [{ engine: 'mrz', binarise: true }];
  const reads: string[][] = [];
  let lineRead: string[] | undefined;
  for (const [k, pass] of attempts.entries()) {
    const text =
      pass === 'lines'
        ? (await ocrLines(zone.plane, zone.lines, zone.lineHeight, noisy)).join('\n')
        : await ocrBand(zone.plane, 0, zone.plane.height, zone.lineHeight * 0.85, pass.engine, pass.binarise, noisy);
    // An MRZ always has filler '<'s; text without any is something else.
    const lines = text.includes('<') ? pickMrzLines(text) : null;
    if (lines) reads.push(lines);
    if (lines && pass === 'lines') lineRead = lines;
    if (k === 2 && reads.length === 3 && reads.every((r) => r.join() === reads[0]!.join())) {
      const read = readMrzLines(reads[0]!, today, seenAt(reads[0]!, reads));
      if (read?.data?.valid) return { read: withDoubts({ ...read, passes: reads, lineRead }), reads, lineRead };
    }
  }
  const read = readPasses(reads, today, lineRead);
  return { read, reads, lineRead };
}

/**
 * A zone not read, or read with characters the passes do not vouch for: the OCR-B model reads it
 * again in grey at two other glyph heights (its errors move with the scale), and all readings
 * vote. The earlier reading is kept if the new one fails its checks.
 */
async function rereadZone(zone: LocatedMrz, first: ZoneRead, today: Date, noisy: boolean): Promise<MrzResult | null> {
  if (!ocrbDataDir()) return first.read;
  const reads = [...first.reads];
  for (const factor of REREAD_HEIGHTS) {
    const text = await ocrBand(zone.plane, 0, zone.plane.height, zone.lineHeight * factor, 'mrz-ocrb', false, noisy);
    const lines = text.includes('<') ? pickMrzLines(text) : null;
    if (lines) reads.push(lines);
  }
  const again = readPasses(reads, today, first.lineRead);
  return first.read?.data?.valid && !again?.data?.valid ? first.read : (again ?? first.read);
}

/** Line heights (× the located one) the zone is read again at when the first passes leave doubts (the first read at 0.85). */
const REREAD_HEIGHTS = [0.65, 1.1] as const;
