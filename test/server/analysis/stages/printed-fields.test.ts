import { describe, expect, it } from 'vitest';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-06-01T00:00:00Z');
const ocr = (texts: string[]) => ({ text: texts.join('\n'), confidence: 90, lines: texts.map((text) => ({ text, confidence: 90 })) });

describe('printedFields', () => {
  it('reads a licence front laid out as AAMVA recommends, even with garbled labels', () => {
    // Lines as tesseract actually returned them for a generated licence (labels misread).
    const out = printedFields(
      ocr([
        'CALIFORNIA',
        'DRIVER LICENSE',
        '0. D1234567',
        'exe 08/12/2029',
        'w ERIKSSON',
        'n ANNA MARIA',
        '1234 MAPLE AVENUE',
        'SACRAMENTO, CA 95814',
        'pos 08/12/1984',
        'sex F HGT 5\'-06"',
        'Iss 03/04/2021',
        'eves BLU',
      ]),
      today,
    );
    expect(out['Full Name']?.value).toBe('ANNA MARIA ERIKSSON');
    expect(out['Date of Birth']?.value).toBe('1984-08-12');
    expect(out['Date of Expiry']?.value).toBe('2029-08-12');
    expect(out['Date of Issue']?.value).toBe('2021-03-04');
    expect(out['Address Postal Code']?.value).toBe('95814');
    expect(out['Sex']?.value).toBe('F');
    expect(out['Eyes Color']?.value).toBe('BLU');
    expect(out['Document Number']?.value).toBe('D1234567');
    expect(out['Full Name']!.confidence).toBeLessThanOrEqual(80);
  });

  it('reads passport labels and leaves out what is not there', () => {
    const out = printedFields(
      ocr(['PASSPORT', 'P USA P55512345', 'Surname', "O'BRIEN", 'Given Names', 'MARY ELIZABETH', 'Date of birth', '02 NOV 1975']),
      today,
    );
    expect(out['Full Name']?.value).toBe("MARY ELIZABETH O'BRIEN");
    expect(out['Date of Birth']?.value).toBe('1975-11-02');
    expect(out['Document Number']?.value).toBe('P55512345');
    expect(out['Address Street']).toBeUndefined();
    expect(out['Height']).toBeUndefined();
  });
});
