/**
 * Which page the MRZ is searched on, and how far (mrz.ts does the search). A page with a PDF417
 * that did not decode is a licence back: searched only when its OCR shows MRZ text (an enhanced
 * licence prints a TD1 MRZ beside its symbol), then with the symbol papered over, so that its
 * rows are not read as text. Searched always, the back paid 0.04-5.8 s of CPU for zones that
 * were the symbol or the card's edges (development stress backs, docs/analysis.md 2026-11-28).
 */
import { classifyDocument, DocType, showsMrzText } from './doc-type.js';
import { finishMrz, searchMrz, textBands, type MrzResult, type MrzSearch } from './mrz.js';
import { headerState } from './printed-fields.js';
import type { GreyPlane } from '../raster.js';
import { growQuad, paperOver, type Quad } from '../warp.js';

/** What the MRZ search needs from the rest of the pipeline. */
export interface MrzPageContext {
  /** A located PDF417 that did not decode (a licence back's, or a false one). */
  readonly symbol: Quad | null | undefined;
  /** The page's OCR text, when it is done (the OCR runs on every page). */
  readonly ocrText: () => Promise<string>;
  /** Times a step under `name` (the pipeline's timings). */
  readonly timed: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
}

const NOTHING: MrzResult = { found: false, fields: {} };

/** The MRZ of a page whose PDF417 was not decoded (none located, or one located and unread). */
export async function readPageMrz(grey: GreyPlane, today: Date, ctx: MrzPageContext): Promise<MrzResult> {
  const besideSymbol = ctx.symbol ? showsMrzText(await ctx.ocrText()) : false;
  if (ctx.symbol && !besideSymbol) return NOTHING;
  const search = async (page: GreyPlane, first: MrzSearch): Promise<MrzResult> => {
    if (first.read?.data?.valid) return first.read;
    // Waiting for the OCR delays the fallbacks, so it is done only where nothing hints at an
    // MRZ: no zone read, and no row of text as wide as an MRZ's (no licence front of the
    // development halves had one, 2 of the 3 passports whose zone was not located did). A
    // TD1's three close lines are mostly not located as lines: the OCR's MRZ text sends it on.
    // A front shows by its heading, or, when the OCR garbled the heading (dim, light print on a
    // dark band), by a US jurisdiction in its header: the fallback's reading would be dropped
    // there anyway (dropFalseMrz), after 16-27 s of CPU under load (dev-variant front 16).
    if (besideSymbol || first.read || textBands(first.page).length > 0 || !showsLicenceFront(await ctx.ocrText()))
      return ctx.timed('mrz_fallback', () => finishMrz(page, today, first));
    return NOTHING;
  };
  const page = ctx.symbol ? paperOver(grey, growQuad(ctx.symbol, 0.03, 0.15)) : grey;
  const read = await search(page, await ctx.timed('mrz', () => searchMrz(page, today)));
  if (!ctx.symbol || read.data?.valid) return read;
  // The "symbol" may be the MRZ's own lines, papered over above: an MRZ whose lines end close to
  // the page's edge joins it into one block the PDF417 locator takes (development passports with
  // the MRZ set wide, 2 of 24). The page is then read as it is; kept only when that reads valid.
  const again = await ctx.timed('mrz_unpapered', async () => search(grey, await searchMrz(grey, today)));
  return again.data?.valid ? again : read;
}

/**
 * A failed reading that is no MRZ, dropped: not a reason to refuse the capture (the page then has
 * nothing machine-readable, which the service sends to review). Two kinds:
 * - A licence front prints no MRZ. An MRZ that failed its checks on a page whose readings show a
 *   licence front is a row of the front's own print read as one (a dim development front: its row
 *   of dates, every check failing). A licence front shows as its heading ("DRIVER LICENSE"), or,
 *   where every reader garbled that heading (dim, light print on a dark band), as a US
 *   jurisdiction named in the card's header (`stateHeader`: printed-fields.ts), with no passport or
 *   ID-card keyword and nothing MRZ-like (fillers, a 28-character run) in any reading.
 * - A reading with neither a document code nor an issuing state holds nothing of an MRZ's fixed
 *   structure: texture read as two long lines (a licence back's unlocated PDF417 rows read as
 *   "ECHM4Z7ZOZIYIOOIB4ZO<…", ten checks failing: development stress back `columns-small` 5).
 * A valid MRZ is kept whatever the text.
 */
export function dropFalseMrz(mrz: MrzResult, texts: readonly string[], stateHeader: boolean): MrzResult {
  if (!mrz.data || mrz.data.valid) return mrz;
  const failing = new Set(mrz.data.failing_checks);
  if (failing.has('Document code') && failing.has('Issuing state')) return NOTHING;
  return showsLicenceFront(texts.join('\n'), stateHeader) ? NOTHING : mrz;
}

/**
 * Whether a page's readings show a licence front and nothing MRZ-like: its heading, or a US
 * jurisdiction in its header (`stateHeader`; by default looked for in the text's first lines, as
 * the field parser does) with no passport or ID-card keyword; no fillers, no 28-character run.
 */
export function showsLicenceFront(text: string, stateHeader?: boolean): boolean {
  if (showsMrzText(text)) return false;
  const type = classifyDocument({ text }).doc_type;
  if (type === DocType.DrivingLicence) return true;
  return type === DocType.Other && (stateHeader ?? headerState(text.split('\n').map((l) => l.trim())) !== null);
}
