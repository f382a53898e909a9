/**
 * The OCR-B font reading a valid MRZ's doubted characters otherwise (mrz-font-read.ts
 * `fontCorrected`, issue 20). Development passports sent to review read wrong by every pass
 * alike: `dim` 0's document number starts with a G every pass read 6 (a check digit weighs G as
 * 6), `dim` 12's MARTINEZ every pass read RARTINEZ (no check digit covers a name). The font,
 * drawn at the zone's own blur on a grid that follows the line, fits the printed glyph far better.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, stretchGrey, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { locateMrz, type LocatedMrz } from '../../../../server/analysis/stages/mrz-locate.js';
import { greyBuffer, SMOOTH_SIGMA } from '../../../../server/analysis/stages/mrz-ocr.js';
import { fontCorrected } from '../../../../server/analysis/stages/mrz-font-read.js';
import { runMrz } from '../../../../server/analysis/stages/mrz.js';
import { DEV } from '../../../fixtures/hard/config.js';
import { hardPeople } from '../../../fixtures/hard/set.js';
import { stressedPassport } from '../../../fixtures/hard/stress.js';
import { passportMrz } from '../../../fixtures/mrz.js';
import { noisePlane } from './noise-plane.js';

afterAll(closeEngines);

const today = new Date('2026-06-01T00:00:00Z');
const dimPage = async (i: number): Promise<GreyPlane> => toGrey(await fitRaster((await prepareInput(await stressedPassport(i, 'dim'))).raster, 2000));
const truth = (i: number): string[] => passportMrz(hardPeople(DEV, i + 1)[i]!);
const put = (lines: readonly string[], line: number, col: number, c: string): string[] =>
  lines.map((l, li) => (li === line ? l.slice(0, col) + c + l.slice(col + 1) : l));
/** The zone as the MRZ stage finds it: located on the page, or (a dim page) on it smoothed and cut from it as it was. */
async function zoneOf(i: number): Promise<LocatedMrz> {
  const page = stretchGrey(await dimPage(i));
  const plain = locateMrz(page)[0];
  if (plain) return plain;
  const { data, info } = await (await greyBuffer(page)).blur(SMOOTH_SIGMA).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return locateMrz({ data, width: info.width, height: info.height }, 2, page)[0]!;
}

describe('doubted characters the OCR-B font reads otherwise', { timeout: 240_000 }, () => {
  it('runMrz reads `dim` 0’s G, every pass read 6, exactly and clean (to review before)', async () => {
    const want = truth(0);
    expect(want[1]![0]).toBe('G');
    const out = await runMrz(await dimPage(0), today);
    expect(out.data?.lines).toEqual(want);
    expect(out.doubts ?? []).toEqual([]);
  });

  it('runMrz reads `dim` 12’s M, every pass read R, exactly and clean (to review before)', async () => {
    const want = truth(12);
    expect(want[0]!.slice(5, 13)).toBe('MARTINEZ');
    const out = await runMrz(await dimPage(12), today);
    expect(out.data?.lines).toEqual(want);
    expect(out.doubts ?? []).toEqual([]);
  });

  it('corrects only doubted characters, and nothing when another character contradicts the font (guards)', async () => {
    const zone = await zoneOf(12);
    const right = truth(12);
    const read = put(right, 0, 5, 'R');
    expect(await fontCorrected(zone.plane, zone.lineHeight, read, [read, read], [{ line: 0, column: 5 }])).toEqual(right);
    // The R not doubted (a doubt elsewhere): the font reads it M, so the reading is not vouched for.
    expect(await fontCorrected(zone.plane, zone.lineHeight, read, [read, read], [{ line: 0, column: 9 }])).toBeNull();
    // A document digit read wrong beside the doubted R: the correction leaves a failing check.
    const digit = right[1]![2] === '8' ? '3' : '8';
    const twoWrong = put(read, 1, 2, digit);
    expect(
      await fontCorrected(
        zone.plane,
        zone.lineHeight,
        twoWrong,
        [twoWrong, twoWrong],
        [
          { line: 0, column: 5 },
          { line: 1, column: 2 },
        ],
      ),
    ).toBeNull();
  });

  it('reads `dim` 0’s doubted 6 as the G printed, and leaves a 6 printed as a 6 (guard)', async () => {
    const zone = await zoneOf(0);
    const right = truth(0);
    const asDigit = put(right, 1, 0, '6');
    expect(await fontCorrected(zone.plane, zone.lineHeight, asDigit, [asDigit, asDigit], [{ line: 1, column: 0 }])).toEqual(right);
    // Every 6 and 1 the document number prints, doubted: vouched for as read, none made a letter.
    const digits = [...right[1]!.slice(0, 9)].flatMap((c, col) => ('61'.includes(c) ? [{ line: 1, column: col }] : []));
    expect(digits.length).toBeGreaterThan(0);
    expect(await fontCorrected(zone.plane, zone.lineHeight, right, [right, right], digits)).toEqual(right);
  });

  it('reads nothing on a zone that is not OCR-B print', async () => {
    const right = truth(12);
    expect(await fontCorrected(noisePlane(600, 90), 22, right, [right, right], [{ line: 0, column: 5 }])).toBeNull();
  });
});
