/**
 * Licence backs the whole-photo decode missed on the development half of the hard set
 * (issue 20): small modules under motion blur, and a finger over the stop pattern. Both decode
 * once the symbol is located, rectified and upscaled.
 */
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { stretchGrey, toGrey } from '../../../../server/analysis/raster.js';
import { locateBarcode } from '../../../../server/analysis/stages/barcode-locate.js';
import { runBarcode } from '../../../../server/analysis/stages/barcode.js';
import { backStressPhoto } from '../../../fixtures/hard/back-stress.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';
import { documentPhoto } from '../../../fixtures/set.js';

const today = new Date('2026-06-01T00:00:00Z');
const dev = HALVES.dev;

describe('runBarcode on hard captures', () => {
  it.each([
    [2, 'motion-blurred, about 2 px per module'],
    [4, 'a finger over the stop pattern'],
  ])(
    'decodes development back %i (%s) into the identity on the card',
    async (person) => {
      const id = hardPeople(dev, person + 1)[person]!;
      const input = await prepareInput(await hardPhoto(dev, person, 'licence-back'));
      const out = await runBarcode(toGrey(input.raster), today);
      expect(out.aamva).toBeDefined();
      expect(out.fields['Document Number']?.value).toBe(id.dlNumber);
      expect(out.fields['Date of Birth']?.value).toBe(id.dob);
      expect(out.fields['Last Name']?.value).toBe(id.last);
    },
    60_000,
  );
});

describe('locateBarcode', () => {
  it('finds the symbol on a licence back as a wide box round it', async () => {
    const g = toGrey((await prepareInput(await hardPhoto(dev, 2, 'licence-back'))).raster);
    const q = locateBarcode(g)!;
    expect(q).not.toBeNull();
    const w = Math.hypot(q[1].x - q[0].x, q[1].y - q[0].y);
    const h = Math.hypot(q[3].x - q[0].x, q[3].y - q[0].y);
    expect(w).toBeGreaterThan(g.width * 0.4);
    // 19 rows of 3-4 modules under 273 modules: about 4:1, the box a little taller than the bars.
    expect(w / h).toBeGreaterThan(3);
  }, 60_000);

  it('finds the symbol on a dim capture whose stretched background noise joins it into one card-sized cloud (columns-wide, back 23)', async () => {
    const g = stretchGrey(toGrey((await prepareInput(await backStressPhoto(23, 'columns-wide'))).raster));
    // At the usual block density the symbol and the dark background's noise made one 628 x 415
    // cloud, not a symbol's shape, and nothing was located.
    const q = locateBarcode(g)!;
    expect(q).not.toBeNull();
    const w = Math.hypot(q[1].x - q[0].x, q[1].y - q[0].y);
    const h = Math.hypot(q[3].x - q[0].x, q[3].y - q[0].y);
    expect(w / h).toBeGreaterThan(2.5);
    expect(w).toBeLessThan(g.width * 0.7);
  }, 120_000);

  it('finds no barcode on a licence front', async () => {
    const g = toGrey((await prepareInput(await documentPhoto(0, 'licence-front', 'clean'))).raster);
    expect(locateBarcode(g)).toBeNull();
  }, 60_000);
});
