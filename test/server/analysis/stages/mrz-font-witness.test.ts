/**
 * The font as a witness for name letters (mrz-font-witness.ts, issue 20): development passports
 * with their MRZ set smaller than the development half prints it (`tight`) were accepted with a
 * name letter every OCR pass misread alike, AALIYAH read AALIYAR (person 4). No pass read the H
 * and the zone prints no other H, so only the font can say the glyph is one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, stretchGrey, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { locateMrz } from '../../../../server/analysis/stages/mrz-locate.js';
import { fontDoubts } from '../../../../server/analysis/stages/mrz-font-witness.js';
import { MrzDoubtKind } from '../../../../server/analysis/stages/mrz-doubt.js';
import { runMrz } from '../../../../server/analysis/stages/mrz.js';
import { DEV } from '../../../fixtures/hard/config.js';
import { hardPeople } from '../../../fixtures/hard/set.js';
import { stressedPassport } from '../../../fixtures/hard/stress.js';
import { passportMrz } from '../../../fixtures/mrz.js';
import { noisePlane } from './noise-plane.js';

const today = new Date('2026-06-01T00:00:00Z');
const page = async (i: number): Promise<GreyPlane> => toGrey(await fitRaster((await prepareInput(await stressedPassport(i, 'tight'))).raster, 2000));
const truth = (i: number): string[] => passportMrz(hardPeople(DEV, i + 1)[i]!);

afterAll(closeEngines);

describe('name letters judged against the OCR-B font', { timeout: 240_000 }, () => {
  it('doubts an R printed as an H that every pass read R', async () => {
    const zone = locateMrz(stretchGrey(await page(4)))[0]!;
    const right = truth(4);
    const taken = [right[0]!.replace('AALIYAH', 'AALIYAR'), right[1]!];
    const doubts = await fontDoubts(zone.plane, zone.lineHeight, taken, [taken, taken, taken]);
    expect(doubts.map((d) => [d.line, d.column, d.chosen, d.likeness])).toEqual([[0, 20, 'R', 'H']]);
  });

  it('doubts nothing in the same zone read right (guard)', async () => {
    const zone = locateMrz(stretchGrey(await page(4)))[0]!;
    const right = truth(4);
    expect(await fontDoubts(zone.plane, zone.lineHeight, right, [right, right, right])).toEqual([]);
  });

  it('finds the grid when the line’s ink span puts the cells a character off (guard: person 12 read right)', async () => {
    const zone = locateMrz(stretchGrey(await page(12)))[0]!;
    const right = truth(12);
    expect(await fontDoubts(zone.plane, zone.lineHeight, right, [right, right, right])).toEqual([]);
  });

  it('judges nothing on a zone that is not OCR-B print', async () => {
    const right = truth(4);
    expect(await fontDoubts(noisePlane(600, 90), 22, right, [right, right])).toEqual([]);
  });

  it('no longer accepts that capture with a wrong name: read exactly, or the letter doubted', async () => {
    const out = await runMrz(await page(4), today);
    expect(out.data?.valid).toBe(true);
    const exact = JSON.stringify(out.data?.lines) === JSON.stringify(truth(4));
    expect(exact || (out.doubts ?? []).some((d) => d.kind === MrzDoubtKind.GlyphUnlike && d.line === 0 && d.column === 20)).toBe(true);
  });
});
