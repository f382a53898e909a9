/**
 * Code fields after labels garbled past the parser's patterns, read by the label the garbled word
 * is nearest to (garbled-labels.ts), on lines recorded from development-variant fronts.
 */
import { describe, expect, it } from 'vitest';
import { CODE_FIELDS, garbledLabelValue } from '../../../../server/analysis/stages/garbled-labels.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-11-29T00:00:00Z');
const ocr = (texts: string[]) => ({ text: texts.join('\n'), confidence: 90, lines: texts.map((text) => ({ text, confidence: 90 })) });

describe('garbledLabelValue', () => {
  it('reads a class after CLASS garbled by two letters', () => {
    // Development-variant fronts 8 (tesseract), 17, 24 (PaddleOCR) and 31 (tesseract as taken).
    expect(garbledLabelValue(['sass C'], CODE_FIELDS.class)).toBe('C');
    expect(garbledLabelValue(['04/25/1992 CAS B'], CODE_FIELDS.class)).toBe('B');
    expect(garbledLabelValue(['5 08/08/2021 S LASS B'], CODE_FIELDS.class)).toBe('B');
    expect(garbledLabelValue(['“08022002 “sass B'], CODE_FIELDS.class)).toBe('B');
  });

  it('takes no class where the word is nearer another label or the value is no class', () => {
    // ISS read "sass" stands before a date, never a class.
    expect(garbledLabelValue(['sass 08/28/2025'], CODE_FIELDS.class)).toBeNull();
    // "ss" is three edits from CLASS; "FN" is the first-name label itself.
    expect(garbledLabelValue(['ws 0808/2021 ss B'], CODE_FIELDS.class)).toBeNull();
    expect(garbledLabelValue(['RSTR NONE fn N'], CODE_FIELDS.endorsements)).toBeNull();
  });

  it('reads an eye colour after EYES garbled, or glued to it, but not after HAIR', () => {
    expect(garbledLabelValue(['15s5ex F waco 4-107 woes BLK'], CODE_FIELDS.eyes)).toBe('BLK');
    expect(garbledLabelValue(['SSEF 5 4-10* WETESBLK'], CODE_FIELDS.eyes)).toBe('BLK');
    expect(garbledLabelValue(['HAIR BRO'], CODE_FIELDS.eyes)).toBeNull();
    expect(garbledLabelValue(['HAIE BRO'], CODE_FIELDS.eyes)).toBeNull();
  });

  it('reads a NONE the reader parted as NONE, not the code NO', () => {
    // Development-variant front 25, PaddleOCR's line.
    expect(garbledLabelValue(['STR NO NE N NONE'], CODE_FIELDS.restrictions)).toBe('NONE');
  });

  it('reads nothing when two garbled labels of one field give different values', () => {
    expect(garbledLabelValue(['sass C', 'CAS B'], CODE_FIELDS.class)).toBeNull();
    expect(garbledLabelValue(['sass C', 'CAS C'], CODE_FIELDS.class)).toBe('C');
  });
});

describe('printedFields with garbled labels', () => {
  it("reads development-variant front 8's class and front 24's class and eyes from tesseract's lines", () => {
    const front8 = ['MASSACHUSETTS', 'won 542238533', "+ O'NEIL", '; CARLOS LIAM', '= 6970 BROADWAY', 'BOSTON, MA 02114', '200e 04/11/1955'];
    const f8 = printedFields(ocr([...front8, 'ass 08/28/2025', '155ex M waar 6-00"', '128577 NONE', 'wor 04/11/2033', 'sass C']), today);
    expect(f8['DL Class']?.value).toBe('C');
    // The issue date after "ass" is still the issue date, not a class.
    expect(f8['Date of Issue']?.value).toBe('2025-08-28');
    const front24 = ['" FLORIDA USA DRIVER LICENSE', '«+. Y162992000659', 'JOHNSON', 'AMELIA MEI', ': 4091 WASHINGTON ST', 'MIAME FL 33116'];
    const f24 = printedFields(ocr([...front24, 'soos 12/19/1955 woe 12/19/2025', '5 08/08/2021 S LASS B', '15s5ex F waco 4-107 woes BLK']), today);
    expect(f24['DL Class']?.value).toBe('B');
    expect(f24['Eyes Color']?.value).toBe('BLK');
  });

  it('reads a height whose foot mark was read as a backtick, and no height with more than 11 inches', () => {
    const read = (line: string) => printedFields(ocr(['ARIZONA', 'F36042855', line]), today)['Height']?.value;
    // Development-variant front 19, PaddleOCR's line.
    expect(read('5`06" GRN')).toBe('5\'-06"');
    // Development-variant front 18: 5'-07" with its 0 read 9.
    expect(read('y 5-97" C')).toBeUndefined();
    expect(read('y 5\'-97" C')).toBeUndefined();
    expect(read('HGT 5\'-11"')).toBe('5\'-11"');
  });

  it('keeps the two letters ending a discriminator the reader spaced off (development front 9)', () => {
    const lines = ['COLORADO', '5.00 A8117624531 YD', 'AVA LOPEZ', 'won 727762807', '1 LOPEZ', '2 AVA INGRID', '# 6246 MAPLE AVE', 'DENVER, CO 80289'];
    expect(printedFields(ocr(lines), today)['Document Discriminator']?.value).toBe('A8117624531YD');
    expect(printedFields(ocr(['DD 0216130446 O.DAVIS']), today)['Document Discriminator']?.value).toBe('0216130446');
  });
});
