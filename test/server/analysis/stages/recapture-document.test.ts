/**
 * The document rule of the screen check (issue 20): a third of the development half's genuine
 * licence backs were called screens, from colour fringes round the PDF417 rows and a woven cloth
 * under the card. The screen replays of the same half must still be caught.
 */
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { detectRecapture } from '../../../../server/analysis/stages/recapture.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPhoto, hardScreen } from '../../../fixtures/hard/set.js';
import { documentPhoto, recapturedLicence } from '../../../fixtures/set.js';

const dev = HALVES.dev;
const raster = async (bytes: Buffer): Promise<Parameters<typeof detectRecapture>[0]> => (await prepareInput(bytes)).raster;

describe('detectRecapture on documents', { timeout: 240_000 }, () => {
  it('does not call genuine development licence backs screens', async () => {
    // Backs 1, 7 and 14: a chroma peak in one plane and one tile; 6 and 8: fringes at the PDF417 rows’ frequency in several tiles.
    const flagged: number[] = [];
    for (const p of [1, 6, 7, 8, 14]) if ((await detectRecapture(await raster(await hardPhoto(dev, p, 'licence-back')), 'document')).screen) flagged.push(p);
    expect(flagged).toEqual([]);
  });

  it('still calls the development screen replays it saw screens', async () => {
    for (const p of [3, 10, 15]) {
      const out = await detectRecapture(await raster(await hardScreen(dev, p)), 'document');
      expect(out.screen).toBe(true);
      expect(out.labels).toContain('moire_pattern');
    }
  });

  it('calls the base set’s screen photo a screen and its card photo not', async () => {
    expect((await detectRecapture(await raster(await recapturedLicence(1)), 'document')).screen).toBe(true);
    expect((await detectRecapture(await raster(await documentPhoto(1, 'licence-front', 'clean')), 'document')).screen).toBe(false);
  });
});
