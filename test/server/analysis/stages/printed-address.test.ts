import { describe, expect, it } from 'vitest';
import { readAddress } from '../../../../server/analysis/stages/printed-address.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-06-01T00:00:00Z');
const ocr = (texts: string[]) => ({ text: texts.join('\n'), confidence: 90, lines: texts.map((text) => ({ text, confidence: 90 })) });
const lines = (texts: string[]) => texts.map((text) => ({ text, confidence: 90 }));

// Lines as PaddleOCR or tesseract read them on dev-variant and development fronts (issue 20,
// point 3): one garbled line of the address block lost every field of it and the names above.
describe('the address and names read line by line', () => {
  it('reads the city and state of a city line whose postal code lost a digit, and the lines above it (variant front 2)', () => {
    const out = printedFields(ocr(['WASHINGTON DRIVER LICENSE', 'W5OOIJB415JZ', 'BROWN', 'HANNAH ZOE', '6021MAPLEAVE', 'SEATTLE.WA9142']), today);
    expect(out['Address City']?.value).toBe('SEATTLE');
    expect(out['Address State']?.value).toBe('WA');
    expect(out['Address Postal Code']).toBeUndefined();
    expect(out['Address']).toBeUndefined();
    expect(out['Address Street']?.value).toBe('6021 MAPLE AVE');
    expect(out['Full Name']?.value).toBe('HANNAH ZOE BROWN');
  });

  it('reads the city line when the street line above it is garbled, and the names above that line (variant front 11)', () => {
    const out = printedFields(ocr(['MASSACHUSETTS USA DRIVER LICENSE', '40 S02117224', 'WILLIAMS', 'ANNA OLIVIA', ':663RIVER', 'BOSTON,MA02101']), today);
    expect(out['Address City']?.value).toBe('BOSTON');
    expect(out['Address State']?.value).toBe('MA');
    expect(out['Address Postal Code']?.value).toBe('02101');
    expect(out['Address Street']).toBeUndefined();
    expect(out['Full Name']?.value).toBe('ANNA OLIVIA WILLIAMS');
  });

  it('takes no names when the line above the city line reads as a name: the street line was not read at all', () => {
    const out = readAddress(lines(['WASHINGTON DRIVER LICENSE', 'BROWN', 'HANNAH ZOE', 'SEATTLE, WA 98142']));
    expect(out.city?.city).toBe('SEATTLE');
    expect(out.names).toBeUndefined();
  });

  it('reads a street line ending in a street suffix, and the names above it, with no city line read (development front 14)', () => {
    const out = printedFields(
      ocr(['ILLINOIS', '«un B71157205884', 'MARTIN', ': VIKTOR JAMES', '+ 3213 2ND AVE', 'VIKTOR MARTIN', 'USA DRIVER LICENSE']),
      today,
    );
    expect(out['Address Street']?.value).toBe('3213 2ND AVE');
    expect(out['Full Name']?.value).toBe('VIKTOR JAMES MARTIN');
    expect(out['Address City']).toBeUndefined();
  });

  it('takes no number-led line without a street suffix for a street, nor a city line with no comma before a four-digit number', () => {
    expect(readAddress(lines(['MARTIN', 'VIKTOR JAMES', '9 CLASS C'])).street).toBeUndefined();
    expect(readAddress(lines(['RSTR NONE END 1234'])).city).toBeUndefined();
    // A state that is no jurisdiction is no city line.
    expect(readAddress(lines(['SEATTLE, QQ 9814'])).city).toBeUndefined();
  });

  it('parts a spelled-out suffix run on to the street name, not a word that merely ends like one', () => {
    expect(readAddress(lines(['7909OCEANDRIVE', 'CHICAGO, IL 60611'])).street?.value).toBe('7909 OCEAN DRIVE');
    expect(readAddress(lines(['5263BROADWAY', 'PORTLAND, OR 97265'])).street?.value).toBe('5263 BROADWAY');
    expect(readAddress(lines(['12 ABROAD', 'PORTLAND, OR 97265'])).street?.value).toBe('12 ABROAD');
  });
});
