/**
 * Licence backs under the development stress sweep (test/fixtures/hard/back-stress.ts, issue 20):
 * a symbol whose rows lean and bend under a steep angle and a wide-angle lens decodes once it
 * is straightened along its own fitted edges, which the box rectification alone does not do.
 */
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, stretchGrey, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { CAREFUL_FIT, fitSymbol, sharpenRows, smoothColumns, straighten } from '../../../../server/analysis/stages/barcode-fit.js';
import { locateBarcode } from '../../../../server/analysis/stages/barcode-locate.js';
import { runBarcode } from '../../../../server/analysis/stages/barcode.js';
import { softLayout } from '../../../../server/analysis/stages/pdf417-soft.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { backStressPhoto } from '../../../fixtures/hard/back-stress.js';
import { hardPeople } from '../../../fixtures/hard/set.js';

const today = new Date('2026-06-01T00:00:00Z');

async function grey(bytes: Buffer): Promise<GreyPlane> {
  return toGrey(await fitRaster((await prepareInput(bytes)).raster, 2000));
}

/** Mean luma of column x of a plane between rows a and b. */
function column(g: GreyPlane, x: number, a: number, b: number): number {
  let s = 0;
  for (let y = a; y < b; y++) s += g.data[y * g.width + x]!;
  return s / (b - a);
}

describe('PDF417 straightened along its fitted edges', { timeout: 300_000 }, () => {
  it('decodes development back 2 photographed at a steeper angle through a wider lens into the identity on the card', async () => {
    const id = hardPeople(HALVES.dev, 3)[2]!;
    // The thin-row variant (1.5-module rows): the back the straightening was built on, which
    // only it decodes.
    const out = await runBarcode(await grey(await backStressPhoto(2, 'tilt', 'thin')), today);
    expect(out.aamva).toBeDefined();
    // The result says which attempt read it: the straightened symbol, not the page or its box.
    expect(out.via).toBe('straightened');
    expect(out.fields['Document Number']?.value).toBe(id.dlNumber);
    expect(out.fields['Date of Birth']?.value).toBe(id.dob);
    expect(out.fields['Last Name']?.value).toBe(id.last);
  });

  it('levels the symbol: the start bar opens it at the same column in its top and bottom rows', async () => {
    const g = stretchGrey(await grey(await backStressPhoto(2, 'tilt')));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    const plane = straighten(g, fit!, 3)!;
    // The start pattern's 8-module bar opens the symbol in every row: its left edge is at the
    // same column in the top and the bottom third of the symbol once the rows are level.
    const h = plane.height;
    const edge = (a: number, b: number): number => {
      for (let x = 0; x < plane.width; x++) if (255 - column(plane, x, a, b) > 128) return x;
      return -1;
    };
    const top = edge(Math.round(h * 0.2), Math.round(h * 0.4));
    const bottom = edge(Math.round(h * 0.6), Math.round(h * 0.8));
    expect(top).toBeGreaterThan(0);
    expect(Math.abs(top - bottom)).toBeLessThanOrEqual(3);
  });

  it('finds no symbol edges where there is no barcode', () => {
    const blank: GreyPlane = { data: new Uint8Array(400 * 300).fill(235), width: 400, height: 300 };
    const quad = [
      { x: 50, y: 100 },
      { x: 350, y: 100 },
      { x: 350, y: 160 },
      { x: 50, y: 160 },
    ] as const;
    expect(fitSymbol(blank, quad)).toBeNull();
  });

  it('sharpens across the bars only and smooths along them', () => {
    // Vertical bars 2 px wide, blurred: sharpening the rows deepens them, the columns stay flat.
    const w = 40;
    const data = new Uint8Array(w * 10);
    for (let y = 0; y < 10; y++) for (let x = 0; x < w; x++) data[y * w + x] = Math.floor(x / 2) % 2 ? 170 : 90;
    const g: GreyPlane = { data, width: w, height: 10 };
    const s = sharpenRows(g, 1.5, 2);
    expect(s.data[5 * w + 20]!).toBeLessThan(90);
    expect(s.data[5 * w + 22]!).toBeGreaterThan(170);
    expect(s.data[0 * w + 20]).toBe(s.data[9 * w + 20]);
    expect([...smoothColumns(g, 3).data]).toEqual([...data]);
  });
});

describe('PDF417 edges measured again where the first fit decodes nothing', { timeout: 300_000 }, () => {
  // Development backs 0 and 7 under `harsh` (the held-out capture ranges at their hard ends):
  // dim, blurred and bright, a few rows nearly white within one band, the stop pattern's thin
  // bars grey. The first fit bowed the edges rows into the symbol and put the right end on the
  // stop pattern's thick bar; the soft reader found no shape on it, and nothing decoded.
  it.each([0, 7])('decodes development back %i under the harsh capture into the identity on the card', async (person) => {
    const id = hardPeople(HALVES.dev, person + 1)[person]!;
    const out = await runBarcode(await grey(await backStressPhoto(person, 'harsh')), today);
    expect(out.aamva).toBeDefined();
    expect(out.via).toBe('soft');
    expect(out.fields['Document Number']?.value).toBe(id.dlNumber);
    expect(out.fields['Date of Birth']?.value).toBe(id.dob);
    expect(out.fields['Last Name']?.value).toBe(id.last);
  });

  it('reads the symbol in its own shape (19 rows of 12 columns, level 5) on the careful fit, not on the first', async () => {
    const g = stretchGrey(await grey(await backStressPhoto(7, 'harsh')));
    const quad = locateBarcode(g)!;
    const first = softLayout(g, fitSymbol(g, quad)!);
    expect(first === null || first.rows !== 19 || first.grid.columns !== 12).toBe(true);
    const careful = softLayout(g, fitSymbol(g, quad, CAREFUL_FIT)!);
    expect(careful).not.toBeNull();
    expect([careful!.rows, careful!.grid.columns]).toEqual([19, 12]);
  });
});
