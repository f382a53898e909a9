import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { toGrey } from '../../../../server/analysis/raster.js';
import { estimateSkew, runBarcode } from '../../../../server/analysis/stages/barcode.js';
import { documentPhoto, flatDocument, IDENTITIES } from '../../../fixtures/set.js';
import sharp from 'sharp';
import { fitRaster, rasterFrom } from '../../../../server/analysis/raster.js';
import { CAPTURES, PEOPLE } from '../captures.js';

const today = new Date('2026-06-01T00:00:00Z');

describe('runBarcode', () => {
  it('decodes the PDF417 on a photographed licence back into AAMVA fields', async () => {
    const input = await prepareInput(await documentPhoto(1, 'licence-back', 'clean'));
    const out = await runBarcode(toGrey(input.raster), today);
    expect(out.found).toBe(true);
    expect(out.via).toBe('page');
    expect(out.fields['Full Name']?.value).toBe('JOSE LUIS GARCIA');
    expect(out.fields['Document Number']?.value).toBe(IDENTITIES[1]!.dlNumber);
    expect(out.fields['Issuing State Name']?.value).toBe('Texas');
  });

  it('deskews a licence back rotated by 9 degrees before decoding', async () => {
    const input = await prepareInput(await documentPhoto(2, 'licence-back', 'rotated'));
    const out = await runBarcode(toGrey(input.raster), today);
    expect(out.found).toBe(true);
    expect(Math.abs(out.deskewAngle ?? 0)).toBeGreaterThan(4);
    expect(out.fields['Last Name']?.value).toBe("O'BRIEN");
  });

  it('reports nothing found on a licence front (no barcode, no invented fields)', async () => {
    const input = await prepareInput(await documentPhoto(0, 'licence-front', 'clean'));
    const out = await runBarcode(toGrey(input.raster), today);
    expect(out.found).toBe(false);
    expect(out.fields).toEqual({});
  });
});

describe('estimateSkew', () => {
  it('finds the rotation of a rotated document within a degree', async () => {
    const flat = await flatDocument(0, 'licence-back');
    const g = toGrey(await rasterFrom(sharp(flat).rotate(7, { background: '#fff' })));
    expect(Math.abs(estimateSkew(g) - 7)).toBeLessThan(1);
  });
});

describe('runBarcode on captures made differently', { timeout: 240_000 }, () => {
  it('decodes white-stock backs exposed to saturation, in other fonts and at JPEG 75', async () => {
    for (const p of [0, 1, 2, 3]) {
      const input = await prepareInput(await CAPTURES.backAuto(p));
      const out = await runBarcode(toGrey(await fitRaster(input.raster, 2000)), today);
      expect(out.fields['Document Number']?.value).toBe(PEOPLE[p]!.dlNumber);
    }
  });

  it('decodes heavily noisy backs with the smoothing retries (the symbol is found but not read without them)', async () => {
    const decoded: string[] = [];
    for (const p of [0, 1]) {
      const input = await prepareInput(await CAPTURES.backNoisy(p));
      const out = await runBarcode(toGrey(await fitRaster(input.raster, 2000)), today);
      decoded.push(String(out.fields['Document Number']?.value));
    }
    expect(decoded).toEqual([PEOPLE[0]!.dlNumber, PEOPLE[1]!.dlNumber]);
  });
});
