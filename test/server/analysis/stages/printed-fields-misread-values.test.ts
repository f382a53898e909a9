/**
 * Values the parser can tell apart: a licence number after its DL label that looked like a
 * nine-digit postal code (dev-variant front 9, PaddleOCR's line), and sex after a SEX label that
 * lost its S.
 */
import { describe, expect, it } from 'vitest';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-06-01T00:00:00Z');
const ocr = (texts: string[]) => ({ text: texts.join('\n'), confidence: 90, lines: texts.map((text) => ({ text, confidence: 90 })) });

describe('misread values told from right ones', () => {
  it('reads nine digits after a DL label as the licence number, after a state code as a postal code', () => {
    const lines = ['COLORADO USA DRIVER LICENSE', '4dDL 727762807', 'LOPEZ', 'AVA INGRID', '6246 MAPLE AVE', 'DENVER, CO 802891234'];
    expect(printedFields(ocr(lines), today)['Document Number']?.value).toBe('727762807');
    expect(printedFields(ocr(lines.filter((l) => !l.startsWith('4d'))), today)['Document Number']).toBeUndefined();
  });
});

describe('sex after a label that lost its S', () => {
  it('reads EXM as sex M, not EXP nor a word holding EX', () => {
    const read = (line: string) => printedFields(ocr(['ILLINOIS', 'B71157205884', line]), today)['Sex']?.value;
    // Development front 14 (numbered, FreeSans): "15 SEX M 16 HGT 6'-03\"" read so by PaddleOCR.
    expect(read('EXM 6 GT 6\'-03" EYES GRY')).toBe('M');
    expect(read('EXP 08/11/2029')).toBeUndefined();
    expect(read('TEXM 12')).toBeUndefined();
  });
});
