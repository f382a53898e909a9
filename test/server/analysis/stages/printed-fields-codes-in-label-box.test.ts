/**
 * Code values some reader returned beside a label it garbled, which the parser dropped before
 * (lines recorded from development fronts, people 0-31): SEX one edit off or lost to its X, a
 * NONE parted or after an END that lost its E, two NONE whose labels went unread, and a label's
 * S glued on to a code.
 */
import { describe, expect, it } from 'vitest';
import { CODE_FIELDS, garbledLabelValue } from '../../../../server/analysis/stages/garbled-labels.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-11-29T00:00:00Z');
const ocr = (texts: string[]) => ({ text: texts.join('\n'), confidence: 90, lines: texts.map((text) => ({ text, confidence: 90 })) });
const HEAD = ['ILLINOIS DRIVER LICENSE', 'Q57269820023', 'KOWALSKI', 'OLIVIA LEE', '7909 OCEAN DRIVE', 'CHICAGO, IL 60611'];
const read = (lines: string[]) => printedFields(ocr([...HEAD, ...lines]), today);

describe('sex after a garbled SEX', () => {
  it('reads sex after a word one edit from SEX, not after one nearer another label', () => {
    // Development fronts 2 ("wsex F": a stray glyph) and 18 ("sux F"), tesseract's lines.
    expect(garbledLabelValue(['wsex F'], CODE_FIELDS.sex)).toBe('F');
    expect(garbledLabelValue(['sux F ual §orT'], CODE_FIELDS.sex)).toBe('F');
    // "sass" is CLASS's, "END" its own label, "wax" two edits off: no sex.
    expect(garbledLabelValue(['sass C', 'END M', 'wax M'], CODE_FIELDS.sex)).toBeNull();
    // Two readings of the page that disagree give nothing.
    expect(garbledLabelValue(['sux F', 'six M'], CODE_FIELDS.sex)).toBeNull();
    expect(read(['soos 10/06/1965', 'wsex F', 'year 4-11"'])['Sex']?.value).toBe('F');
  });

  it('reads "XF" on the height line as sex F (development front 13: SEX lost to its X)', () => {
    expect(read(['08/11/1966 5 B', 'XF IGT 5-03" ES BLK'])['Sex']?.value).toBe('F');
    // Off the height line an X and a letter are no sex.
    expect(read(['XF', 'HGT 5-03"'])['Sex']).toBeUndefined();
  });
});

describe('NONE after a garbled or parted endorsements label', () => {
  it('reads a NONE the reader parted as NONE, not the code NO (development front 26, PaddleOCR)', () => {
    const f = read(['DOB 03/20/1950 CLASS.C', 'RSTR NONE END NO NE']);
    expect(f['DL Endorsed']?.value).toBe('NONE');
    expect(f['DL Restriction Code']?.value).toBe('NONE');
  });

  it('reads NONE after END with its E lost, and two NONE whose labels went unread as both NONE', () => {
    // Development front 14, PaddleOCR's line: RSTR read "LERSTE", END read "ND".
    const f = read(['LERSTE NONE ND NONE']);
    expect(f['DL Endorsed']?.value).toBe('NONE');
    expect(f['DL Restriction Code']?.value).toBe('NONE');
    // END's E lost alone: the NONE after it is the endorsements', the restrictions stay unread.
    const e = read(['ND NONE']);
    expect([e['DL Restriction Code'], e['DL Endorsed']?.value]).toEqual([undefined, 'NONE']);
    const g = read(['TNO NONE', 'RTE NONE']);
    expect([g['DL Restriction Code']?.value, g['DL Endorsed']?.value]).toEqual(['NONE', 'NONE']);
    // One NONE with neither label read says not which field it is.
    const h = read(['TNO NONE']);
    expect([h['DL Restriction Code'], h['DL Endorsed']]).toEqual([undefined, undefined]);
  });
});

describe("a label's S glued on to a code (PaddleOCR's boxes paired under a label)", () => {
  it('reads "SC" after CLASS as class C, and "SF" (SEX\'s S and the sex) as no class, restriction or endorsement', () => {
    // Development fronts 18 ("CLASS SC", "RSTR SF") and 2 ("CLASS SF"), dev-variant 23 ("CLASS SE") and 31 ("END SF").
    expect(read(['CLASS SC'])['DL Class']?.value).toBe('C');
    expect(read(['CLASS SE'])['DL Class']?.value).toBe('E');
    expect(read(['CLASS SF'])['DL Class']).toBeUndefined();
    const f = read(['RSTR SF', 'END NONE', '12.85 G ED NONE']);
    expect(f['DL Restriction Code']?.value).toBe('NONE');
    expect(read(['END SF'])['DL Endorsed']).toBeUndefined();
    // Other codes keep their letters.
    expect(read(['CLASS CM', 'RSTR AB', 'END PS'])).toMatchObject({
      'DL Class': { value: 'CM' },
      'DL Restriction Code': { value: 'AB' },
      'DL Endorsed': { value: 'PS' },
    });
  });
});
