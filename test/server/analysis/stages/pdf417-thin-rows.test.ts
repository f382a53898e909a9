/**
 * Thin PDF417 rows (issue 20, `--rows thin`): a row read with its neighbours' share taken out,
 * its height in modules, and the rows placed between the fitted edges; then development
 * thin-row backs the soft reader could not decode before, decoded to their card's payload.
 */
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, stretchGrey, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { fitSymbol } from '../../../../server/analysis/stages/barcode-fit.js';
import { locateBarcode } from '../../../../server/analysis/stages/barcode-locate.js';
import type { Grid } from '../../../../server/analysis/stages/pdf417-grid.js';
import { softDecodePdf417, softLayout } from '../../../../server/analysis/stages/pdf417-soft.js';
import { edgeLine, rowModules, UNMIX_SHARE, unmixedBand, unmixedLine } from '../../../../server/analysis/stages/pdf417-thin-rows.js';
import { aamvaPayload } from '../../../fixtures/aamva.js';
import { backStressPhoto } from '../../../fixtures/hard/back-stress.js';
import { decodePdf417 } from '../../../../server/analysis/stages/barcode.js';
import { DEV, DEV_VARIANT } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';

/**
 * Three rows 4 px tall, 16 px wide: the middle row's own pattern is dark on even columns, its
 * neighbours' on odd ones, and each row carries 30 % of the other pattern (a vertical blur).
 */
function mixedRows(): GreyPlane {
  const width = 16;
  const height = 12;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const own = y >= 4 && y < 8 ? 0 : 1;
    for (let x = 0; x < width; x++) {
      const a = x % 2 === own ? 200 : 0;
      const b = x % 2 !== own ? 200 : 0;
      data[y * width + x] = 255 - Math.round(0.7 * a + 0.3 * b);
    }
  }
  return { data, width, height };
}

/** Dark on even columns less dark on odd ones, over the mean darkness: how well the middle row's own pattern shows. */
function contrast(p: Float64Array): number {
  let even = 0;
  let odd = 0;
  for (let x = 0; x < p.length; x++) {
    if (x % 2 === 0) even += p[x]!;
    else odd += p[x]!;
  }
  return (even - odd) / Math.abs(even + odd);
}

async function grey(bytes: Buffer): Promise<GreyPlane> {
  return stretchGrey(toGrey(await fitRaster((await prepareInput(bytes)).raster, 2000)));
}

describe('thin PDF417 rows', () => {
  it("takes the neighbour rows' share out of a row's centre", () => {
    const g = mixedRows();
    const yAt = (row: number): number => row * 4;
    const plain = unmixedBand(g, yAt, 1, 0, 0);
    const unmixed = unmixedBand(g, yAt, 1, 0, UNMIX_SHARE);
    // 0.7 own against 0.3 of the neighbours' pattern as read; 0.7 − 0.3 s against 0.3 − 0.7 s unmixed.
    expect(contrast(plain)).toBeCloseTo(0.4, 5);
    expect(contrast(unmixed)).toBeGreaterThan(0.8);
    // The same on a three-pixel scanline at the row's centre, a row pitch from its neighbours'.
    expect(contrast(unmixedLine(g, 5, 4, UNMIX_SHARE))).toBeGreaterThan(0.8);
  });

  it('measures the rows in modules and places them between the fitted edges', () => {
    const grid: Grid = { columns: 10, sigma: 0.5, at: (m) => 40 + 2 * m };
    expect(rowModules(grid, [edgeLine(10, 70, 20), edgeLine(10, 70, 20)])).toBeCloseTo(1.5, 5);
    expect(rowModules(grid, [edgeLine(10, 130, 20), edgeLine(10, 130, 20)])).toBeCloseTo(3, 5);
    expect(edgeLine(10, 70, 20)).toEqual({ a: 10, b: 3, n: 0 });
  });
});

describe('softDecodePdf417 on thin rows', { timeout: 300_000 }, () => {
  it.each([
    ['blur', 2, 'no row line at either end: the rows placed between the fitted edges, read unmixed 204/228 codewords right, 174/228 as before'],
    ['all', 2, 'each row read on its middle half 147/228 codewords were right; unmixed, 193/228'],
    [
      'small',
      6,
      'the level indicator read 0 for 5 (rows 21 for 19) and no row line could be fitted: read unmixed it names 5, and the rows are placed between the edges',
    ],
  ] as const)('decodes a 1.5-module-row back the soft reader missed (stress sweep, %s, back %i: %s)', async (stress, index, _why) => {
    const g = await grey(await backStressPhoto(index, stress, 'thin'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    expect(softLayout(g, fit!)?.thin).toBe(true);
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, index + 1)[index]!));
  });

  it("decodes a sharper capture's thin rows with a lighter share taken out (development-variant back 27)", async () => {
    // Read at UNMIX_SHARE 194/228 codewords were right, too few for Reed-Solomon; at the
    // lighter share, 213/228. Through the stage as the pipeline runs it (zxing's attempts first).
    const hit = await decodePdf417(toGrey(await fitRaster((await prepareInput(await hardPhoto(DEV_VARIANT, 27, 'licence-back', 'thin'))).raster, 2000)));
    expect(hit).toMatchObject({ text: aamvaPayload(hardPeople(DEV_VARIANT, 28)[27]!), via: 'soft' });
  });

  it('reads the standard-row back as before (rows 3 modules tall are not unmixed)', async () => {
    const g = await grey(await backStressPhoto(2, 'blur'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    const layout = softLayout(g, fit!)!;
    expect(layout.thin).toBe(false);
    expect(layout.unmix).toBe(0);
  });
});
