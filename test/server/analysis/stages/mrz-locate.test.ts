/**
 * Passports of the development half whose MRZ the row search did not find (issue 20): the
 * pages are photographed under perspective, so the MRZ lines are neither level nor parallel
 * to the image rows. Found as text lines and rectified, they read exactly.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import type { DenseRegion } from '../../../../server/analysis/stages/barcode-locate.js';
import { joinBrokenLines, locateMergedMrz, locateMrz } from '../../../../server/analysis/stages/mrz-locate.js';
import { clearStrayFiller } from '../../../../server/analysis/stages/mrz-filler.js';
import { pickMrzLines, readMrz, runMrz } from '../../../../server/analysis/stages/mrz.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';
import { stressedPassport } from '../../../fixtures/hard/stress.js';
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

describe('MRZ under a fingertip or over texture', { timeout: 240_000 }, () => {
  it.each([
    // 7: a fingertip joins the second line to the page edge (no line shape left) and hides two fillers.
    // 11: the rectified zone took in a guilloche band that OCR read as 140 characters of 8s and 2s.
    [7],
    [11],
  ])('reads development passport %i as a valid MRZ with its document number and dates', async (p) => {
    const id = hardPeople(dev, p + 1)[p]!;
    const out = await runMrz(await page(p), today);
    expect(out.data?.valid).toBe(true);
    expect(out.data?.lines[1]).toBe(passportMrz(id)[1]);
    expect(out.fields['Document Number']?.value).toBe(id.passportNumber);
    expect(out.fields['Date of Birth']?.value).toBe(id.dob);
  });

  it('offers a zone round a lone MRZ-long line when the other line has no line shape', async () => {
    // Development passport 14: the fingertip over the second line leaves one group-less line.
    const zones = locateMrz(await page(14));
    expect(zones.length).toBeGreaterThan(0);
    expect(zones[0]!.plane.width).toBeGreaterThan(3 * zones[0]!.plane.height);
  });
});

describe('filler repairs', () => {
  const [l1, l2] = passportMrz(hardPeople(dev, 4)[3]!);

  it('puts fillers OCR dropped back into the filler run of the second line, not after the check digits', () => {
    const short = l2.replace('<<<<', '<<');
    expect(short.length).toBe(42);
    expect(pickMrzLines(`${l1}\n${short}`)).toEqual([l1, l2]);
    expect(readMrz(`${l1}\n${short}`, today)?.data?.valid).toBe(true);
  });

  it('clears a lone mark inside a filler run when that makes the checks hold, and keeps a real letter', () => {
    const marked = `${l2.slice(0, 32)}C${l2.slice(33)}`;
    expect(marked).not.toBe(l2);
    expect(clearStrayFiller([l1, marked]).lines).toEqual([l1, l2]);
    const read = readMrz(`${l1}\n${marked}`, today);
    expect(read?.data?.valid).toBe(true);
    expect(read?.data?.lines).toEqual([l1, l2]);
    // A given name of one letter sits between single fillers: it stays.
    const initial = 'P<USASMITH<<JOHN<A<<<<<<<<<<<<<<<<<<<<<<<<<<';
    expect(clearStrayFiller([initial, l2]).lines[0]).toBe(initial);
  });
});

describe('joinBrokenLines', () => {
  const piece = (x0: number, x1: number, y: number): DenseRegion => ({
    cx: (x0 + x1) / 2,
    cy: y,
    theta: 0,
    long: x1 - x0,
    short: 20,
    fill: 0.7,
    quad: [
      { x: x0, y: y - 10 },
      { x: x1, y: y - 10 },
      { x: x1, y: y + 10 },
      { x: x0, y: y + 10 },
    ],
  });

  it('joins two pieces of one line across a finger-wide gap', () => {
    const out = joinBrokenLines([piece(100, 400, 500), piece(440, 700, 500)]);
    expect(out).toHaveLength(1);
    expect(out[0]!.long).toBeCloseTo(600, 0);
    expect(out[0]!.short).toBeCloseTo(20, 0);
  });

  it('keeps lines apart that are stacked, far apart along the line, or of another height', () => {
    expect(joinBrokenLines([piece(100, 400, 500), piece(100, 400, 540)])).toHaveLength(2);
    expect(joinBrokenLines([piece(100, 300, 500), piece(500, 700, 500)])).toHaveLength(2);
    const tall = { ...piece(440, 700, 500), short: 60 };
    expect(joinBrokenLines([piece(100, 400, 500), tall])).toHaveLength(2);
  });
});

describe('an MRZ whose lines end close to the page edge', { timeout: 240_000 }, () => {
  // Development passports 13 and 16 with the MRZ set wide (test/fixtures/hard/stress.ts): the
  // lines end 10-30 px from the page's edge, their blocks join the edge's, and no line shape is left.
  const wide = async (p: number) => toGrey(await fitRaster((await prepareInput(await stressedPassport(p, 'wide'))).raster, 2000));

  it.each([13, 16])('is found as one merged region and read exactly (wide passport %i)', async (p) => {
    const g = await wide(p);
    expect(locateMrz(g)).toEqual([]);
    expect(locateMergedMrz(g)).toHaveLength(1);
    const out = await runMrz(g, today);
    expect(out.data?.valid).toBe(true);
    expect(out.data?.lines).toEqual(passportMrz(hardPeople(dev, p + 1)[p]!));
  });
});
