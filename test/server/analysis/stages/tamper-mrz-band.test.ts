/**
 * A valid MRZ's plain clear band is not a pasted fill (tamper.ts `regionsOutsideMrz`): on
 * development passport 23 the block-noise check finds the band round the MRZ lines far cleaner
 * than the textured page, and the page went to review as `photoshopped`.
 */
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import { searchMrz } from '../../../../server/analysis/stages/mrz.js';
import { detectPastedRegions, regionsOutsideMrz, type TamperRegion } from '../../../../server/analysis/stages/tamper.js';
import { DEV } from '../../../fixtures/hard/config.js';
import { hardPhoto } from '../../../fixtures/hard/set.js';

const region = (x: number, y: number, w: number, h: number): TamperRegion => ({ box: [x, y, w, h], blocks: 20, sigma: 0.01, imageSigma: 0.4 });

describe('regionsOutsideMrz', { timeout: 180_000 }, () => {
  it('leaves out the clean band round a located MRZ, and only that', async () => {
    const grey = toGrey(await fitRaster((await prepareInput(await hardPhoto(DEV, 23, 'passport'))).raster, 2000));
    const tamper = detectPastedRegions(grey);
    expect(tamper.regions.length).toBeGreaterThan(0);
    const mrz = await searchMrz(grey, new Date('2026-11-28T00:00:00Z'));
    expect(mrz.read?.data?.valid).toBe(true);
    expect(regionsOutsideMrz(tamper.regions, mrz.read?.zone)).toEqual([]);
    // A patch over the date of birth printed above the MRZ (x 300-430, y 255-285 on this page) still counts.
    expect(regionsOutsideMrz([region(300, 255, 128, 32)], mrz.read?.zone)).toHaveLength(1);
  });

  it('keeps every region when no MRZ was located', () => {
    expect(regionsOutsideMrz([region(10, 10, 64, 32)], undefined)).toHaveLength(1);
  });

  it('drops a region centred in the zone, keeps one beside it', () => {
    const zone = [
      { x: 100, y: 400 },
      { x: 700, y: 400 },
      { x: 700, y: 480 },
      { x: 100, y: 480 },
    ] as const;
    expect(regionsOutsideMrz([region(300, 420, 100, 40)], zone)).toEqual([]);
    expect(regionsOutsideMrz([region(300, 200, 100, 40)], zone)).toHaveLength(1);
  });
});
