/**
 * A pasted fill is a clean island in noisier paper (tamper.ts `maxRingCleanShare`): plain card
 * stock on a small, denoised upload is clean all over, and development back 3 under the `small`
 * stress (685 px) was called `photoshopped` for two patches of it.
 */
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import { detectPastedRegions } from '../../../../server/analysis/stages/tamper.js';
import { backStressPhoto } from '../../../fixtures/hard/back-stress.js';
import { tamperedLicence } from '../../../fixtures/set.js';
import { CAPTURES } from '../captures.js';

const suspicious = async (bytes: Buffer): Promise<boolean> => detectPastedRegions(toGrey(await fitRaster((await prepareInput(bytes)).raster, 2000))).suspicious;

describe('detectPastedRegions on plain card stock', { timeout: 240_000 }, () => {
  it('does not call the plain stock of a small, denoised licence back pasted (development back 3, `small`)', async () => {
    expect(await suspicious(await backStressPhoto(3, 'small'))).toBe(false);
    expect(await suspicious(await backStressPhoto(3, 'columns-small'))).toBe(false);
  });

  it('still finds a date of birth pasted as a flat fill in the card’s noisy paper', async () => {
    for (const p of [0, 1]) {
      expect(await suspicious(await CAPTURES.frontForged(p))).toBe(true);
      expect(await suspicious(await tamperedLicence(p))).toBe(true);
    }
  });
});
