/**
 * The soft PDF417 reader (issue 20) on licence backs of the development stress sweep: it reads
 * a motion-blurred symbol's codewords in grey and decodes the card's own payload (also when a
 * lens bends its columns off the fitted grid), and where the
 * codewords cannot be read well enough it returns nothing rather than a wrong text.
 */
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { stretchGrey, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { fitSymbol } from '../../../../server/analysis/stages/barcode-fit.js';
import { locateBarcode } from '../../../../server/analysis/stages/barcode-locate.js';
import { softDecodePdf417, softLayout } from '../../../../server/analysis/stages/pdf417-soft.js';
import { aamvaPayload } from '../../../fixtures/aamva.js';
import { backStressPhoto, otherShape } from '../../../fixtures/hard/back-stress.js';
import { DEV } from '../../../fixtures/hard/config.js';
import { hardPeople } from '../../../fixtures/hard/set.js';

async function grey(bytes: Buffer): Promise<GreyPlane> {
  return stretchGrey(toGrey((await prepareInput(bytes)).raster));
}

describe('softDecodePdf417', { timeout: 300_000 }, () => {
  it('decodes the payload of a motion-blurred development back (stress sweep, blur, back 0)', async () => {
    const g = await grey(await backStressPhoto(0, 'blur'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, 1)[0]!));
  });

  it('decodes a lens-bent, steeply angled back whose codeword columns drift a module off the quadratic grid (stress sweep, tilt, back 1)', async () => {
    const g = await grey(await backStressPhoto(1, 'tilt'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    // Read on the quadratic grid alone, the columns between a tenth and a half of its width
    // matched none of their codewords (110 of 228 right): each is now read at its own shift.
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, 2)[1]!));
  });

  it('decodes a small back whose start and stop patterns fit 13 columns as well as its 12 (stress sweep, small, back 6)', async () => {
    const g = await grey(await backStressPhoto(6, 'small'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    // The count is chosen by the codeword boundaries, which fall out of step with a wrong one;
    // chosen by the start and stop patterns alone it was 13 and nothing was read.
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, 7)[6]!));
  });

  it('decodes a small back whose rows, as placed, drift off their codewords toward both ends (stress sweep, small, back 0)', async () => {
    const g = await grey(await backStressPhoto(0, 'small'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    // Read where the row indicators put the rows, the outer rows read 0-2 of their 12
    // codewords: each codeword is now searched down the rows as well.
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, 1)[0]!));
  });

  it('decodes a small back whose middle column bulges down by more than a row while its ends stay put (stress sweep, small, back 14)', async () => {
    const g = await grey(await backStressPhoto(14, 'small'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    // Searched only within a row and a quarter of where the rows were placed, or round a line
    // down each column, the bulge was not followed and nothing decoded: each column is now
    // tracked row by row from its best-read codeword.
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, 15)[14]!));
  });

  it('decodes a small 9-column back whose top rows drift more than a row off where they were placed (columns-small, back 16)', async () => {
    expect(otherShape(16).columns).toBe(9);
    const g = await grey(await backStressPhoto(16, 'columns-small'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, 17)[16]!));
  });

  it('decodes a steeply tilted back whose first grid took 15 columns for its 12 and whose indicators then named none (stress sweep, tilt, back 5)', async () => {
    const g = await grey(await backStressPhoto(5, 'tilt'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    // Read on the 15-column grid the row indicators said 29 columns, and the reader gave up:
    // the counts next to the first are now fitted in turn until the indicators name one.
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, 6)[5]!));
  });

  it("decodes a steeply tilted back whose right-end rows were fitted on a few misread indicators at half the left end's pitch (stress sweep, tilt, back 2)", async () => {
    const g = await grey(await backStressPhoto(2, 'tilt'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    // 8 indicator reads on the right put the rows' pitch at 12.6 px against 23.7 from 91 reads
    // on the left: the right half's rows were read up to six rows off and nothing decoded. The
    // poorly supported end that disagrees now takes the other end's rows.
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, 3)[2]!));
  });

  it('decodes a back whose level indicator reads 4 for its 5 (columns-wide, back 10)', async () => {
    expect(otherShape(10).columns).toBe(15);
    const g = await grey(await backStressPhoto(10, 'columns-wide'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    // 216 of 225 codewords were read right, but corrected with 32 error-correction codewords
    // for 64; the other levels the indicators read are now tried.
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, 11)[10]!));
  });

  it.each([
    [3, 13, "no count's grid had indicators naming it (its own 13 read as 6)"],
    [6, 14, 'a wrong count (13) was named by a few garbled indicator reads that placed no rows'],
  ])('decodes a lens-bent back whose module size grows toward both ends (columns-wide, back %i, %i columns: %s)', async (index, columns) => {
    expect(otherShape(index).columns).toBe(columns);
    const g = await grey(await backStressPhoto(index, 'columns-wide'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    // One module size for both end patterns put the row indicators modules off: each end is
    // now fitted apart and a cubic joins them.
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, index + 1)[index]!));
  });

  it('returns nothing, not a wrong text, when a third of the symbol is wiped out', async () => {
    const g = await grey(await backStressPhoto(0, 'blur'));
    const q = locateBarcode(g)!;
    const fit = fitSymbol(g, q)!;
    // Paper over the middle third of the symbol's length, every row.
    const xs = q.map((p) => p.x);
    const ys = q.map((p) => p.y);
    const [a, b] = [Math.min(...xs), Math.max(...xs)];
    const data = Uint8Array.from(g.data);
    for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++)
      for (let x = Math.round(a + (b - a) * 0.4); x < Math.round(a + (b - a) * 0.7); x++) data[y * g.width + x] = 230;
    expect(softDecodePdf417({ data, width: g.width, height: g.height }, fit)).toBeNull();
  });

  it('decodes the same back drawn with 1.5-module rows, whose inner rows blur into each other', async () => {
    const g = await grey(await backStressPhoto(0, 'blur', 'thin'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    // Nothing decoded while each row's middle half was read as it is: thin rows are now read
    // at their centres with the neighbour rows' share taken out (pdf417-thin-rows.ts).
    expect(softDecodePdf417(g, fit!)).toBe(aamvaPayload(hardPeople(DEV, 1)[0]!));
  });

  it("offers the ends' own rows when the right end's line was replaced (stress sweep, tilt, back 2)", async () => {
    const g = await grey(await backStressPhoto(2, 'tilt'));
    const fit = fitSymbol(g, locateBarcode(g)!);
    expect(fit).not.toBeNull();
    // 8 reads on the right put the pitch at 12.6 px against 23.7 from 91 on the left. (Thin
    // `columns-wide` 3, used here before, reads its indicators unmixed now and the rule no
    // longer fires there.)
    const layout = softLayout(g, fit!)!;
    expect(layout.ownEnds).toBeDefined();
    const own = layout.ownEnds!();
    const x = layout.plane.width;
    expect(Math.abs(own.yAt(layout.rows, x) - layout.yAt(layout.rows, x))).toBeGreaterThan(5);
    expect(own.grid).toBe(layout.grid);
  });
});
