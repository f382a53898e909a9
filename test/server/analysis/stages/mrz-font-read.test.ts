/**
 * The OCR-B font as a reader of a zone no OCR pass read valid, and as a witness for the doubted
 * characters of a valid reading (mrz-font-read.ts, issue 20). Development passport 11 under the
 * `hard` stress (dim, blurred, small, a lens-bowed page) was refused, every pass reading its zone
 * with some check failing; its MRZ is legible to a person, and the font, matched glyph by glyph on
 * a grid that follows the bowed lines, reads it. Development passport 24, read exactly, went to
 * review for MEI's E, which the zone's straight-grid font witness found more like an F.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, stretchGrey, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { locateMrz, type LocatedMrz } from '../../../../server/analysis/stages/mrz-locate.js';
import { greyBuffer, SMOOTH_SIGMA } from '../../../../server/analysis/stages/mrz-ocr.js';
import { fontReading, fontVouches } from '../../../../server/analysis/stages/mrz-font-read.js';
import { runMrz } from '../../../../server/analysis/stages/mrz.js';
import { editDistance } from '../../../../server/analysis/stages/mrz-align.js';
import { DEV } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';
import { stressedPassport } from '../../../fixtures/hard/stress.js';
import { passportMrz } from '../../../fixtures/mrz.js';
import { noisePlane } from './noise-plane.js';

afterAll(closeEngines);

/** The zone as the MRZ stage finds it: located on the page, or (a dim page) on it smoothed and cut from it as it was. */
async function locatedZone(bytes: Buffer): Promise<LocatedMrz> {
  const page = stretchGrey(toGrey(await fitRaster((await prepareInput(bytes)).raster, 2000)));
  const plain = locateMrz(page)[0];
  if (plain) return plain;
  const { data, info } = await (await greyBuffer(page)).blur(SMOOTH_SIGMA).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const smooth: GreyPlane = { data, width: info.width, height: info.height };
  return locateMrz(smooth, 2, page)[0]!;
}

const hardZone = async (i: number): Promise<LocatedMrz> => locatedZone(await stressedPassport(i, 'hard'));

const truth = (i: number): string[] => passportMrz(hardPeople(DEV, i + 1)[i]!);

describe('the zone read by the OCR-B font', { timeout: 240_000 }, () => {
  it('reads the `hard` 11 zone the passes failed on, from their wrong reading, all but one character', async () => {
    const zone = await hardZone(11);
    // What the OCR passes' vote read there (main, 2026-11-29): a name letter, the document number and checks wrong.
    const read = ['P<USAWILLIARS<<ANNA<OUIVIA<<<<<<<<<<<<<<<<<<', 'A8159300O4USA8508155F2808152<<<<<<<<<<<<<<<0'];
    const font = await fontReading(zone.plane, zone.lineHeight, read, [read, read]);
    const want = truth(11);
    expect(font).not.toBeNull();
    expect(font![0]).toBe(want[0]);
    expect(editDistance(font![1]!, want[1]!)).toBeLessThanOrEqual(1);
  });

  it('runMrz reads `hard` 11 exactly where every OCR pass failed a check (refused before)', async () => {
    const page = toGrey(await fitRaster((await prepareInput(await stressedPassport(11, 'hard'))).raster, 2000));
    const out = await runMrz(page, new Date('2026-06-01T00:00:00Z'));
    expect(out.data?.valid).toBe(true);
    expect(out.data?.lines).toEqual(truth(11));
    // Its name's M every OCR pass read R: the font alone read it, so it stays doubted (review).
    expect(out.doubts?.some((d) => d.line === 0 && d.column === 11)).toBe(true);
  });

  it('vouches for passport 24’s doubted E, read exactly: runMrz reads it clean (to review before)', async () => {
    const page = toGrey(await fitRaster((await prepareInput(await hardPhoto(DEV, 24, 'passport'))).raster, 2000));
    const out = await runMrz(page, new Date('2026-06-01T00:00:00Z'));
    expect(out.data?.lines).toEqual(truth(24));
    expect(out.doubts ?? []).toEqual([]);
  });

  it('does not vouch for that letter read wrong, nor for a reading the font reads otherwise (guards)', async () => {
    const zone = await locatedZone(await hardPhoto(DEV, 24, 'passport'));
    const right = truth(24);
    expect(right[0]!.slice(20, 24)).toBe('<MEI');
    const wrongE = [right[0]!.slice(0, 22) + 'F' + right[0]!.slice(23), right[1]!];
    expect(await fontVouches(zone.plane, zone.lineHeight, wrongE, [wrongE, right], [{ line: 0, column: 22 }])).toBe(false);
    // The E right and doubted, a digit of the document number read wrong and not doubted.
    const wrongDigit = [right[0]!, right[1]!.slice(0, 3) + (right[1]![3] === '8' ? '6' : '8') + right[1]!.slice(4)];
    expect(await fontVouches(zone.plane, zone.lineHeight, wrongDigit, [wrongDigit, right], [{ line: 0, column: 22 }])).toBe(false);
    // Right throughout: vouched.
    expect(await fontVouches(zone.plane, zone.lineHeight, right, [right, right], [{ line: 0, column: 22 }])).toBe(true);
  });

  it('reads nothing on a zone that is not OCR-B print', async () => {
    const right = truth(11);
    expect(await fontReading(noisePlane(600, 90), 22, right, [right, right])).toBeNull();
  });
});
