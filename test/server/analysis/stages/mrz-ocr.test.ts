/**
 * Each MRZ line cut out of its rectified zone and read alone by the OCR-B model (mrz-ocr.ts):
 * the witness the whole-zone passes cannot outvote on a name letter (issue 20).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, stretchGrey, toGrey } from '../../../../server/analysis/raster.js';
import { locateMrz } from '../../../../server/analysis/stages/mrz-locate.js';
import { lineBands, ocrLines } from '../../../../server/analysis/stages/mrz-ocr.js';
import { runMrz } from '../../../../server/analysis/stages/mrz.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPeople } from '../../../fixtures/hard/set.js';
import { stressedPassport } from '../../../fixtures/hard/stress.js';
import { passportMrz } from '../../../fixtures/mrz.js';

const dev = HALVES.dev;
const today = new Date('2026-06-01T00:00:00Z');
const smallPage = async (p: number) => toGrey(await fitRaster((await prepareInput(await stressedPassport(p, 'small'))).raster, 2000));

afterAll(closeEngines);

describe('the MRZ read line by line', { timeout: 240_000 }, () => {
  it('finds one band of glyphs per line in a located zone, apart and no taller than a line', async () => {
    const zone = locateMrz(stretchGrey(await smallPage(11)))[0]!;
    const bands = lineBands(zone.plane, 2, zone.lineHeight);
    expect(bands).toHaveLength(2);
    expect(bands[0]![1]).toBeLessThanOrEqual(bands[1]![0]);
    for (const [top, bottom] of bands) expect(bottom - top).toBeLessThanOrEqual(zone.lineHeight * 1.2);
  });

  it('reads the name line of a small upload that the whole-zone passes all misread (development passport 11: WILLIAMS)', async () => {
    const zone = locateMrz(stretchGrey(await smallPage(11)))[0]!;
    const lines = await ocrLines(zone.plane, 2, zone.lineHeight, false);
    expect(lines[0]).toContain('WILLIAMS');
  });

  it('does not accept that upload with a wrong name: read exactly, or sent to review', async () => {
    const out = await runMrz(await smallPage(11), today);
    const exact = JSON.stringify(out.data?.lines) === JSON.stringify(passportMrz(hardPeople(dev, 12)[11]!));
    expect(out.data?.valid).toBe(true);
    expect(exact || (out.doubts ?? []).length > 0).toBe(true);
  });
});
