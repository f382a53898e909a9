/**
 * An MRZ that passes every check digit but holds a wrong value (issue 20): the readings below
 * are the three OCR passes (OCR-B binarised, OCR-B grey, legacy) of development passports
 * photographed under the stress sweep (test/fixtures/hard/stress.ts), as main read them before
 * this change, when each was accepted with a wrong name or document number.
 */
import { describe, expect, it } from 'vitest';
import { readPasses } from '../../../../server/analysis/stages/mrz.js';
import { MrzDoubtKind, mrzDoubts } from '../../../../server/analysis/stages/mrz-doubt.js';
import { voteLines } from '../../../../server/analysis/stages/mrz-vote.js';

const today = new Date('2026-06-01T00:00:00Z');

// Dim passport 4 (O'CONNOR, X00901606): the grey pass read noise on line 1; the document number
// read XD0901608 / XD0901808 passed its check once 0 → D was repaired at column 4.
const DIM_4 = [
  ['P<USAQCONNQR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<<', 'XD09016083USA6701055F3101056<<<<<<<<<<<<<<04'],
  ['8BBMESNE68086458080E40<<4<444000501<04058<05', 'XD09018083USA6701055F3101056<<<<<<<<<<<<<<04'],
  ['19QSAOCOQNON<AAL1YAN<LEE<<<<<<<<<<<<<<<<<<<<', '52515LXDWNGOGSUSMSPN05513101056<<<<<<<<<<<<<'],
];
// Blurred passport 2 (ZOE): two passes, the first garbled past the names, the second read an extra 2.
const BLUR_2 = [
  ['P<USARBROWN<<HANNAH<ZQ0E<4<NNXNXX<S<YXXNXX<<', 'G10170881<4USA651008<2J0510088<<<NNNNNNNN8NN'],
  ['P<USABROWN<<HANNAH<2ZOE<<<<<<<<<<<<<<<<<<<<<', 'G101708814USA6510064F2910068<<<<<<<<<<<<<<00'],
];
// Dim passport 0 (document number G01813087): the passes read 6, 0 and 6 where the G is.
const DIM_0 = [
  ['P<USAIVANOV<<XAVIER<WEI<<<<<<<<<<<<<<<<<<<<<', '6018130876USA7304040M2804040<<<<<<<<<<<<<<06'],
  ['P<USAANOV<<XAVIER<WEI<<<<<<<<<<<<<<<<<<<<<<<', '0018130876USA7304040M2804040<<<<<<<<<<<<<<06'],
  ['P<USAIVAMOV<<XAVIER<UEI<<<<<<<<<<<<<<<<<<<<<', '6018130876051730404002804040<<<<<<<<<<<<<<06'],
];
// Blurred passport 6 (LIAM): the binarised pass added an N (LIANM), shifting the rest of its line.
const BLUR_6 = [
  ['P<USAPATEL<<LIANM<GIDEON<<<<<<<<<<<<<<<<<<<<', 'G356068011USA8910129M2810124<<<<<<<<<<<<<<08'],
  ['P<USAPATEL<<LIAM<GIDEON<<<<<<<<<<<<<<<<<<<<<', 'G356068011USA8910129M2810124<<<<<<<<<<<<<<08'],
  ['P<USAPATEL<<LXAN<GIDEON<<<<<<<<<<<<<<<<<<<<<', '63560680110SAB910129N201012L<<<<<<<<<<<<<<03'],
];
// Passport 1 as the development half draws it: one pass misread each name letter, the majority did not.
const PASSPORT_1 = [
  ['P<USADAVIS<<GMAR<VIKTOR<<<<<<<<<<<<<<<<<<<<<', '7921530896USA5903058M3103050<<<<<<<<<<<<<<08'],
  ['P<USADAVIS<<OMAR<VIKTOR<<<<<<<<<<<<<<<<<<<<<', '7921530896USA5903058M3103050<<<<<<<<<<<<<<08'],
  ['P<USADAVIS<<OHAR<V1KTOR<<<<<<<<<<<<<<<<<<<<<', '7921530896USA5903058H31O3OSO<<<<<<<<<<<<<<OS'],
];

const acceptedClean = (r: ReturnType<typeof readPasses>): boolean => r?.data?.valid === true && (r.doubts ?? []).length === 0;

describe('readPasses: a valid MRZ with a value no check digit vouches for is not a clean accept', () => {
  it('does not repair a digit every sound pass read into a letter to pass a check (dim passport 4)', () => {
    const out = readPasses(DIM_4, today);
    expect(out?.data?.corrections).not.toContainEqual({ line: 1, column: 4, from: '0', to: 'D' });
    expect(out?.data?.lines[1]?.slice(0, 10)).not.toBe('XD09D16083');
    expect(acceptedClean(out)).toBe(false);
  });

  it('doubts the names when the passes disagree on a letter and no majority read it (blurred passport 2)', () => {
    const out = readPasses(BLUR_2, today);
    expect(out?.data?.valid).toBe(true);
    expect(out?.doubts?.some((d) => d.field === 'names' && d.kind === MrzDoubtKind.PassesDisagree)).toBe(true);
    // The names it feeds are reported at the confidence of an MRZ that failed its checks.
    expect(out?.fields['Full Name']?.confidence).toBe(60);
  });

  it('doubts a 6 of the document number the check digit cannot tell from G when the passes disagree (dim passport 0)', () => {
    const out = readPasses(DIM_0, today);
    expect(out?.data?.valid).toBe(true);
    expect(out?.doubts).toContainEqual(expect.objectContaining({ kind: MrzDoubtKind.CheckBlind, field: 'document_number', line: 1, column: 0, chosen: '6' }));
  });

  it('reads the name a pass that added a character would have outvoted, and trusts it (blurred passport 6)', () => {
    const truth = ['P<USAPATEL<<LIAM<GIDEON<<<<<<<<<<<<<<<<<<<<<', 'G356068011USA8910129M2810124<<<<<<<<<<<<<<08'];
    expect(voteLines(BLUR_6)?.[0]).toBe(truth[0]);
    const out = readPasses(BLUR_6, today);
    expect(out?.data?.lines).toEqual(truth);
    expect(out?.doubts ?? []).toEqual([]);
  });

  it('accepts a name that most passes read alike (passport 1 as drawn)', () => {
    const out = readPasses(PASSPORT_1, today);
    expect(out?.data?.lines[0]).toBe(PASSPORT_1[1]![0]);
    expect(acceptedClean(out)).toBe(true);
  });
});

describe('mrzDoubts', () => {
  it('names the field of each doubted character and what the passes read there', () => {
    const lines = PASSPORT_1[1]!;
    const sexR = [lines[0]!, lines[1]!.slice(0, 20) + 'R' + lines[1]!.slice(21)];
    const doubts = mrzDoubts(lines, [sexR, sexR, lines]);
    expect(doubts).toEqual([{ kind: MrzDoubtKind.PassesDisagree, line: 1, column: 20, field: 'sex', chosen: 'M', read: ['R', 'R', 'M'] }]);
  });

  it('doubts a letter made a digit where every pass read a letter, in a field that allows both', () => {
    const lines = PASSPORT_1[1]!;
    const withO = [lines[0]!, 'O' + lines[1]!.slice(1)];
    const passes = [withO, withO];
    const doubts = mrzDoubts([lines[0]!, '0' + lines[1]!.slice(1)], passes);
    expect(doubts).toContainEqual(expect.objectContaining({ kind: MrzDoubtKind.RepairChangedKind, field: 'document_number', column: 0 }));
  });
});
