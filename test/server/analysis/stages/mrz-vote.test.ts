/**
 * Several readings of one MRZ combined (mrz-vote.ts), the sex field repaired by its type, and
 * development passports photographed dimmer and noisier than the development half draws
 * (test/fixtures/hard/stress.ts): the failure modes of issue 20's held-out passports,
 * reproduced on development documents.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import { correctMrz, readMrz, runMrz } from '../../../../server/analysis/stages/mrz.js';
import { consensusReadings, voteLines } from '../../../../server/analysis/stages/mrz-vote.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';
import { stressedPassport } from '../../../fixtures/hard/stress.js';
import { passportMrz } from '../../../fixtures/mrz.js';

const dev = HALVES.dev;
const today = new Date('2026-06-01T00:00:00Z');
afterAll(closeEngines);

// Development passport 1 as the three engine passes read it: the binarised OCR-B pass read the
// O of OMAR as G, the legacy engine M as H and I as 1, and every check digit held on each.
const OCRB_BINARISED = ['P<USADAVIS<<GMAR<VIKTOR<<<<<<<<<<<<<<<<<<<<<', '7921530896USA5903058M3103050<<<<<<<<<<<<<<08'];
const OCRB_GREY = ['P<USADAVIS<<OMAR<VIKTOR<<<<<<<<<<<<<<<<<<<<<', '7921530896USA5903058M3103050<<<<<<<<<<<<<<08'];
const LEGACY = ['P<USADAVIS<<OHAR<V1KTOR<<<<<<<<<<<<<<<<<<<<<', '7921530896USA5903058H31O3OSO<<<<<<<<<<<<<<OS'];

describe('voteLines', () => {
  it('takes each character from the majority of the readings', () => {
    expect(voteLines([OCRB_BINARISED, OCRB_GREY, LEGACY])).toEqual(OCRB_GREY);
    expect(readMrz(OCRB_BINARISED.join('\n'), today)?.data?.valid).toBe(true);
  });

  it('keeps the first reading where two disagree and only readings of the common shape vote', () => {
    expect(voteLines([['ABC'], ['ABD']])).toEqual(['ABC']);
    expect(voteLines([['ABD'], ['ABC', 'X'], ['ABD']])).toEqual(['ABD']);
  });
});

describe('consensusReadings', () => {
  it('offers the vote first, then the vote with one line from one reading, then each reading', () => {
    const finger = [OCRB_GREY[0]!, '7921530896USA5903058M310H00<Q04<<<<<<<<<<<<<'];
    const sets = consensusReadings([finger, finger, [LEGACY[0]!, OCRB_GREY[1]!]]);
    expect(sets[0]).toEqual(finger);
    // The second line as the third reading read it, under the voted first line: the set that validates.
    const at = (lines: string[]): number => sets.findIndex((s) => s.join() === lines.join());
    expect(at(OCRB_GREY)).toBeGreaterThan(0);
    // …before the third reading as it was, whose first line (OHAR) lost the vote.
    expect(at(OCRB_GREY)).toBeLessThan(at([LEGACY[0]!, OCRB_GREY[1]!]));
  });

  it('lets the reading whose check digits hold break a three-way tie on the names line (development passport 0, blurred)', () => {
    const binarised = ['P<USAIVAROV<<XAVIER<WEI<<<<<<<<<<<<<<<<<<<<<', 'G018130876USA7304040M280404C<<<<<<<<<<<<<<Q0'];
    const grey = ['P<USAIVANOV<<XAVIER<WEI<<<<<<<<<<<<<<<<<<<<<', 'G018130876USA7304040M2804040<<<<<<<<<<<<<<06'];
    const legacy = ['PUSA1VA0V<<1AV153<511<<<<<4<<<44<<<<<<<<<<<<', '6018130876USA73060L0I280L0401<<<<<<<<<<<1<06'];
    expect(consensusReadings([binarised, grey, legacy])[0]![0]).toBe(grey[0]);
  });
});

describe('correctMrz on the sex field', () => {
  it('reads a letter that is not M, F or X there as the one it resembles', () => {
    const good = OCRB_GREY;
    const misread = [good[0]!, good[1]!.slice(0, 20) + 'R' + good[1]!.slice(21)];
    const out = correctMrz(misread);
    expect(out?.result.valid).toBe(true);
    expect(out?.lines).toEqual(good);
    expect(out?.corrections).toContainEqual({ line: 1, column: 20, from: 'R', to: 'M' });
  });
});

describe('runMrz on development passports', { timeout: 300_000 }, () => {
  it('reads the name no check digit covers as most engine passes read it (development passport 1)', async () => {
    const id = hardPeople(dev, 2)[1]!;
    const out = await runMrz(toGrey(await fitRaster((await prepareInput(await hardPhoto(dev, 1, 'passport'))).raster, 2000)), today);
    expect(out.data?.lines).toEqual(passportMrz(id));
    expect(out.fields['First Name']?.value).toBe('OMAR VIKTOR');
  });

  it('finds and reads the MRZ of a page photographed dim and noisy (development passport 1)', async () => {
    const id = hardPeople(dev, 2)[1]!;
    const out = await runMrz(toGrey(await fitRaster((await prepareInput(await stressedPassport(1, 'dim'))).raster, 2000)), today);
    expect(out.data?.valid).toBe(true);
    expect(out.data?.lines).toEqual(passportMrz(id));
  });
});
