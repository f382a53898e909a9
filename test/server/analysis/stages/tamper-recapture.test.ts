import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import { detectRecapture } from '../../../../server/analysis/stages/recapture.js';
import { detectPastedRegions } from '../../../../server/analysis/stages/tamper.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPhoto } from '../../../fixtures/hard/set.js';
import { documentPhoto, recapturedLicence, tamperedLicence } from '../../../fixtures/set.js';
import { CAPTURES } from '../captures.js';

describe('detectPastedRegions', { timeout: 120_000 }, () => {
  it('finds the pasted date-of-birth patch', async () => {
    const input = await prepareInput(await tamperedLicence(1));
    const out = detectPastedRegions(toGrey(await fitRaster(input.raster, 2000)));
    expect(out.suspicious).toBe(true);
    // The patch sits over the DOB field, in the card's lower middle.
    const [x, y] = out.regions[0]!.box;
    expect(x).toBeGreaterThan(600);
    expect(y).toBeGreaterThan(600);
  });

  it('passes the untouched photos', async () => {
    for (const kind of ['licence-front', 'passport'] as const) {
      const input = await prepareInput(await documentPhoto(1, kind, 'clean'));
      expect(detectPastedRegions(toGrey(await fitRaster(input.raster, 2000))).suspicious).toBe(false);
    }
  });
});

describe('detectRecapture', { timeout: 120_000 }, () => {
  it('calls a photo of a screen a screen and a photo of the card not', async () => {
    const screen = await detectRecapture((await prepareInput(await recapturedLicence(1))).raster);
    const card = await detectRecapture((await prepareInput(await documentPhoto(1, 'licence-front', 'clean'))).raster);
    expect(screen.screen).toBe(true);
    expect(screen.labels).toContain('screen');
    expect(card.screen).toBe(false);
    expect(screen.peakRatio).toBeGreaterThan(2 * card.peakRatio);
  });
});

describe('detectPastedRegions on captures made differently', { timeout: 240_000 }, () => {
  const suspicious = async (bytes: Buffer): Promise<boolean> =>
    detectPastedRegions(toGrey(await fitRaster((await prepareInput(bytes)).raster, 2000))).suspicious;

  it('does not call clean white-stock licences and passports saved at JPEG 70-80 pasted', async () => {
    // JPEG wipes the noise out of smooth blocks of the desk and paper here and there; judged
    // against the frame's median alone, every one of these was "photoshopped".
    const flagged: string[] = [];
    for (const p of [0, 1, 2, 3]) {
      if (await suspicious(await CAPTURES.passportClean(p))) flagged.push(`passport ${p}`);
      if (await suspicious(await CAPTURES.backAuto(p))) flagged.push(`back ${p}`);
      if (await suspicious(await CAPTURES.frontAuto(p))) flagged.push(`front ${p}`);
    }
    expect(flagged).toEqual([]);
  });

  it('does not call the plain paper round a passport’s MRZ lines pasted (development passport 10, JPEG 71)', async () => {
    // The flat blocks next to the glyphs read as noisy (their blurred edges), so the paper
    // between the lines looked far cleaner than its surroundings; and a 6-block strip of
    // JPEG-zeroed paper under the second line is no field.
    expect(await suspicious(await hardPhoto(HALVES.dev, 10, 'passport'))).toBe(false);
  });

  it('still finds a date of birth pasted on a patch of the paper’s own colour', async () => {
    for (const p of [0, 1, 2, 3]) {
      expect(await suspicious(await CAPTURES.frontForged(p))).toBe(true);
      expect(await suspicious(await CAPTURES.frontPlain(p))).toBe(false);
    }
  });
});
