/**
 * Values a reading gets wrong in one character that the parser can still tell from right ones:
 * a year misread into a date no licence expires on, and a licence number after its DL label that
 * looked like a nine-digit postal code (dev-variant fronts 11 and 9, PaddleOCR's lines).
 */
import { describe, expect, it } from 'vitest';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-06-01T00:00:00Z');
const ocr = (texts: string[]) => ({ text: texts.join('\n'), confidence: 90, lines: texts.map((text) => ({ text, confidence: 90 })) });

describe('misread values told from right ones', () => {
  it('drops an expiry whose year was misread centuries ahead, keeps a long but possible one', () => {
    const read = (exp: string) => printedFields(ocr(['MASSACHUSETTS', 'S02117224', 'WILLIAMS', 'ANNA OLIVIA', `08/15/1985 ${exp}`]), today)['Date of Expiry'];
    expect(read('08/15/2828')).toBeUndefined();
    expect(read('08/15/2028')?.value).toBe('2028-08-15');
    // Valid to the holder's 65th birthday (the longest US term).
    expect(read('08/15/2050')?.value).toBe('2050-08-15');
  });

  it('reads nine digits after a DL label as the licence number, after a state code as a postal code', () => {
    const lines = ['COLORADO USA DRIVER LICENSE', '4dDL 727762807', 'LOPEZ', 'AVA INGRID', '6246 MAPLE AVE', 'DENVER, CO 802891234'];
    expect(printedFields(ocr(lines), today)['Document Number']?.value).toBe('727762807');
    expect(printedFields(ocr(lines.filter((l) => !l.startsWith('4d'))), today)['Document Number']).toBeUndefined();
  });
});
