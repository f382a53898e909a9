/**
 * The MRZ's last fallback, the page's lowest wide rows (mrz-bands.ts, mrz.ts `readBandedMrz`,
 * issue 20): development passports with the MRZ set wide (`wide` 1, 12) were left unread with a
 * legible MRZ, no zone located, the skew estimate 3 degrees off (1) or the strokes too soft for
 * the strong edge (12).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, stretchGrey, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { estimateSkew } from '../../../../server/analysis/stages/barcode.js';
import { bandsOf, levelled, rotate, textBands } from '../../../../server/analysis/stages/mrz-bands.js';
import { runMrz } from '../../../../server/analysis/stages/mrz.js';
import { DEV } from '../../../fixtures/hard/config.js';
import { hardPeople } from '../../../fixtures/hard/set.js';
import { stressedPassport } from '../../../fixtures/hard/stress.js';
import { passportMrz } from '../../../fixtures/mrz.js';

const today = new Date('2026-06-01T00:00:00Z');
const page = async (i: number): Promise<GreyPlane> => toGrey(await fitRaster((await prepareInput(await stressedPassport(i, 'wide'))).raster, 2000));
const truth = (i: number): string[] => passportMrz(hardPeople(DEV, i + 1)[i]!);

afterAll(closeEngines);

describe('the MRZ in the page’s lowest rows', { timeout: 240_000 }, () => {
  it('levels a page the skew estimate leaves degrees off, so its MRZ lines fill rows again', async () => {
    const g = await page(1);
    const skew = estimateSkew(g);
    expect(textBands(await rotate(stretchGrey(g), -skew))).toEqual([]);
    const { g: level } = await levelled(stretchGrey(g), skew);
    const bands = bandsOf(level);
    expect(bands.length).toBeGreaterThanOrEqual(2);
    // The two lowest bands are the MRZ's lines: in the page's lower third, about two glyphs apart.
    const [a, b] = bands.slice(-2) as [[number, number], [number, number]];
    expect(a[0]).toBeGreaterThan(level.height * 0.6);
    expect(b[0] - a[0]).toBeGreaterThan(15);
    expect(b[0] - a[0]).toBeLessThan(60);
  });

  it('counts the weaker edges of soft strokes when the strong ones find fewer than two rows', async () => {
    const g = await page(12);
    const { g: level } = await levelled(stretchGrey(g), estimateSkew(g));
    expect(textBands(level).length).toBeLessThan(2);
    expect(bandsOf(level).length).toBeGreaterThanOrEqual(2);
  });

  it('reads `wide` 12’s MRZ exactly, where nothing was read', async () => {
    const out = await runMrz(await page(12), today);
    expect(out.data?.valid).toBe(true);
    expect(out.data?.lines).toEqual(truth(12));
  });

  it('reads `wide` 1’s MRZ, and a name letter the font does not see there is doubted, not accepted', async () => {
    const out = await runMrz(await page(1), today);
    expect(out.data?.valid).toBe(true);
    const exact = JSON.stringify(out.data?.lines) === JSON.stringify(truth(1));
    expect(exact || (out.doubts ?? []).some((d) => d.field === 'names')).toBe(true);
  });
});
