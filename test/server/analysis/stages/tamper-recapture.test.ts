import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import { detectRecapture } from '../../../../server/analysis/stages/recapture.js';
import { detectPastedRegions } from '../../../../server/analysis/stages/tamper.js';
import { documentPhoto, recapturedLicence, tamperedLicence } from '../../../fixtures/set.js';

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
