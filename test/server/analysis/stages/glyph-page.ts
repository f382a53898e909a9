/**
 * Pages for the small-print tests: synthetic ones (dark rectangles standing for glyphs on card
 * stock), and a development-variant licence front's page as the pipeline prepares it for reading.
 */
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { uprightPage } from '../../../../server/analysis/stages/ocr.js';
import type { Rect } from '../../../../server/analysis/stages/row-band.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPhoto } from '../../../fixtures/hard/set.js';

/** A light page (card stock at 215) of the given size with dark rectangles standing for glyphs. */
export function glyphPage(width: number, height: number, glyphs: readonly Rect[]): GreyPlane {
  const data = new Uint8Array(width * height).fill(215);
  for (const r of glyphs) for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) data[y * width + x] = 50;
  return { data, width, height };
}

/** Development-variant front `index`, fitted to 2000 px, grey and upright, as the readers see it. */
export async function devVariantFrontPage(index: number): Promise<GreyPlane> {
  const prepared = await prepareInput(await hardPhoto(HALVES['dev-variant'], index, 'licence-front'));
  return uprightPage(toGrey(await fitRaster(prepared.raster, 2000)));
}
