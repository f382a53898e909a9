/**
 * Passports of the development half whose MRZ the row search did not find (issue 20): the
 * pages are photographed under perspective, so the MRZ lines are neither level nor parallel
 * to the image rows. Found as text lines and rectified, they read exactly.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import { locateMrz } from '../../../../server/analysis/stages/mrz-locate.js';
import { pickMrzLines, readMrz, runMrz } from '../../../../server/analysis/stages/mrz.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';
import { passportMrz } from '../../../fixtures/mrz.js';

const dev = HALVES.dev;
const today = new Date('2026-06-01T00:00:00Z');
const page = async (p: number, kind: 'passport' | 'licence-front' = 'passport') =>
  toGrey(await fitRaster((await prepareInput(await hardPhoto(dev, p, kind))).raster, 2000));

afterAll(closeEngines);

describe('MRZ on photographed passports', { timeout: 240_000 }, () => {
  it.each([10, 13])('reads both lines of development passport %i exactly', async (p) => {
    const id = hardPeople(dev, p + 1)[p]!;
    const out = await runMrz(await page(p), today);
    expect(out.data?.valid).toBe(true);
    expect(out.data?.lines).toEqual(passportMrz(id));
    expect(out.fields['Document Number']?.value).toBe(id.passportNumber);
  });

  it('locates the two MRZ lines as one zone, wide and upright', async () => {
    const zones = locateMrz(await page(10));
    expect(zones[0]?.lines).toBe(2);
    // Two 44-character lines with a margin: several times wider than tall.
    expect(zones[0]!.plane.width).toBeGreaterThan(4 * zones[0]!.plane.height);
  });
});

describe('pickMrzLines with a stray mark read before or after a line', () => {
  const [l1, l2] = passportMrz(hardPeople(dev, 4)[3]!);

  it('starts the first line at its document code and keeps the window of the second whose checks hold', () => {
    // Development passport 3 was read "HP<USA…" (a mark before the page's edge).
    expect(pickMrzLines(`H${l1}\n${l2}`)).toEqual([l1, l2]);
    expect(pickMrzLines(`${l1}\nK${l2}`)).toEqual([l1, l2]);
    expect(pickMrzLines(`${l1}\n${l2}<`)).toEqual([l1, l2]);
  });

  it('reads such an MRZ as valid with the right document number', () => {
    const out = readMrz(`H${l1}\nK${l2}`, today);
    expect(out?.data?.valid).toBe(true);
    expect(out?.fields['Document Number']?.value).toBe(hardPeople(dev, 4)[3]!.passportNumber);
  });
});
