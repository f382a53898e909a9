import { describe, expect, it } from 'vitest';
import type { ProcessorField } from '../../../../server/analysis/stages/aamva.js';
import { chooseFields, pickReading } from '../../../../server/analysis/stages/reading-choice.js';

const today = new Date('2026-06-01T00:00:00Z');
const fields = (values: Record<string, string | number>): Record<string, ProcessorField> =>
  Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value, confidence: 50 }]));
const values = (f: Record<string, ProcessorField>): Record<string, unknown> => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.value]));

describe('chooseFields', () => {
  it("takes PaddleOCR's document number and expiry on development front 0, where tesseract read the issue date as expiry", () => {
    // The two readings of development front 0 of the hard set (2026-11-27, main 556d2b4).
    const tess = fields({
      'Date of Birth': '1973-04-04',
      age: 53,
      'Document Number': 'DIBSA0000',
      'Date of Expiry': '2024-09-18',
      'Address Street': '7220 ELM STREET',
      'Address City': 'SACRAMENTO',
      'Address State': 'CA',
      'Address Postal Code': '95835',
    });
    const paddle = fields({
      'Date of Birth': '1973-04-04',
      age: 53,
      'Document Number': 'J0580908',
      'Date of Expiry': '2028-04-04',
      'Date of Issue': '2024-09-18',
      'Address Street': '7220 ELM STREET',
      'Address City': 'SACRAMENTO',
      'Address State': 'CA',
      'Address Postal Code': '95835',
      'DL Class': 'A',
      'DL Restriction Code': 'NONE',
    });
    const out = values(chooseFields(tess, paddle, today));
    expect(out['Document Number']).toBe('J0580908');
    expect(out['Date of Expiry']).toBe('2028-04-04');
    expect(out['Date of Issue']).toBe('2024-09-18');
    expect(out['DL Class']).toBe('A');
    expect(out['Address']).toBe('7220 ELM STREET, SACRAMENTO, CA 95835');
    expect(out['Address Jurisdiction Code']).toBe('CA');
  });

  it("keeps tesseract's name and street on development front 13, which PaddleOCR ran together and read with a 0 for an O", () => {
    const tess = fields({
      'Full Name': 'OLIVIA LEE KOWALSKI',
      'First Name': 'OLIVIA',
      'Middle Name': 'LEE',
      'Last Name': 'KOWALSKI',
      'Address Street': '7909 OCEAN DRIVE',
      'Address City': 'CHICAGO',
      'Address State': 'IL',
      'Address Postal Code': '60611',
    });
    const paddle = fields({
      'Full Name': 'OLIVIALEE EN KO WALSKI',
      'First Name': 'OLIVIALEE',
      'Middle Name': 'EN KO',
      'Last Name': 'WALSKI',
      'Address Street': '7909 0CEAN DRIVE',
      'Address City': 'CHICAGO',
      'Address State': 'IL',
      'Address Postal Code': '60611',
      Sex: 'F',
      'Eyes Color': 'BLK',
    });
    const out = values(chooseFields(tess, paddle, today));
    expect(out['Full Name']).toBe('OLIVIA LEE KOWALSKI');
    expect([out['First Name'], out['Middle Name'], out['Last Name']]).toEqual(['OLIVIA', 'LEE', 'KOWALSKI']);
    expect(out['Address Street']).toBe('7909 OCEAN DRIVE');
    expect(out['Address']).toBe('7909 OCEAN DRIVE, CHICAGO, IL 60611');
    // What tesseract missed comes from PaddleOCR.
    expect(out['Sex']).toBe('F');
    expect(out['Eyes Color']).toBe('BLK');
  });

  it("keeps a NONE either reading read for restrictions and endorsements over the other's code (development front 23)", () => {
    // PaddleOCR paired RSTR with a stray E; tesseract read "PSTR NONE".
    const out = values(
      chooseFields(fields({ 'DL Restriction Code': 'NONE', 'DL Endorsed': 'NONE' }), fields({ 'DL Restriction Code': 'E', 'DL Endorsed': 'NONE' }), today),
    );
    expect(out['DL Restriction Code']).toBe('NONE');
    const back = values(chooseFields(fields({ 'DL Endorsed': 'M' }), fields({ 'DL Endorsed': 'NONE' }), today));
    expect(back['DL Endorsed']).toBe('NONE');
    // Two codes: PaddleOCR's, as before; and the class is no such field.
    expect(
      values(chooseFields(fields({ 'DL Restriction Code': 'B', 'DL Class': 'C' }), fields({ 'DL Restriction Code': 'E', 'DL Class': 'D' }), today)),
    ).toEqual({
      'DL Restriction Code': 'E',
      'DL Class': 'D',
    });
  });

  it('keeps name parts from the reading whose full name was chosen', () => {
    const tess = fields({ 'Full Name': 'ANA KIM', 'First Name': 'ANA', 'Last Name': 'KIM' });
    const paddle = fields({ 'Full Name': 'ANA M KIM', 'First Name': 'ANA', 'Middle Name': 'M', 'Last Name': 'KIM' });
    const out = values(chooseFields(tess, paddle, today));
    // Both pass: a name keeps tesseract's reading, and PaddleOCR's middle name does not join it.
    expect(out['Full Name']).toBe('ANA KIM');
    expect(out['Middle Name']).toBeUndefined();
    const back = values(chooseFields(paddle, fields({ 'Full Name': 'ANA K1M', 'Last Name': 'K1M' }), today));
    expect(back['Last Name']).toBe('KIM');
  });

  it('refuses dates that are no calendar day or implausible for their field', () => {
    const out = values(
      chooseFields(
        fields({ 'Date of Birth': '2025-02-01', 'Date of Issue': '2023-02-31', 'Date of Expiry': '2045-01-01' }),
        fields({ 'Date of Birth': '1990-02-01', 'Date of Issue': '2023-02-13', 'Date of Expiry': '2031-02-01' }),
        today,
      ),
    );
    // A birth a year ago; 31 February; an expiry 22 years after issue.
    expect(out['Date of Birth']).toBe('1990-02-01');
    expect(out['Date of Issue']).toBe('2023-02-13');
    expect(out['Date of Expiry']).toBe('2031-02-01');
  });

  it('refuses an expiry further off than any licence runs', () => {
    // Both calendar days: without the bound, PaddleOCR's would win the tie.
    const out = values(chooseFields(fields({ 'Date of Expiry': '2028-08-15' }), fields({ 'Date of Expiry': '2828-08-15' }), today));
    expect(out['Date of Expiry']).toBe('2028-08-15');
  });

  it('checks state, postal code, sex, eyes and height by their codes', () => {
    const out = values(
      chooseFields(
        fields({ 'Address State': 'IO', 'Address Postal Code': '6061', Sex: 'W', 'Eyes Color': 'BRN', Height: `5'-13"`, 'Issuing State Code': 'XX' }),
        fields({ 'Address State': 'IA', 'Address Postal Code': '60611', Sex: 'M', 'Eyes Color': 'BRO', Height: `5'-11"`, 'Issuing State Code': 'IA' }),
        today,
      ),
    );
    expect(out).toMatchObject({
      'Address State': 'IA',
      'Address Postal Code': '60611',
      Sex: 'M',
      'Eyes Color': 'BRO',
      Height: `5'-11"`,
      'Issuing State Code': 'IA',
    });
  });

  it('refuses a document number that is the street line with its field number glued on (development front 9)', () => {
    const out = values(
      chooseFields(
        fields({ 'Document Number': 'A8117624531', 'Address Street': '6246 MAPLE AVE' }),
        fields({ 'Document Number': '86246MAPLEAVE', 'Address Street': '86246 MAPLEAVE' }),
        today,
      ),
    );
    expect(out['Document Number']).toBe('A8117624531');
    expect(out['Address Street']).toBe('6246 MAPLE AVE');
  });

  it("takes the document number that fits the issuer's formats over PaddleOCR's that does not", () => {
    // California: 1 letter + 7 digits. PaddleOCR's reading missed the header and the address, so
    // it could not repair its I read 1; tesseract's holds the state.
    const tess = fields({ 'Document Number': 'I7654321', 'Issuing State Code': 'CA' });
    const paddle = fields({ 'Document Number': '17654321' });
    expect(values(chooseFields(tess, paddle, today))['Document Number']).toBe('I7654321');
    // With no state on either reading, numbers are PaddleOCR's as before.
    expect(values(chooseFields(fields({ 'Document Number': 'I7654321' }), paddle, today))['Document Number']).toBe('17654321');
  });
});

describe('pickReading', () => {
  const ok = (): boolean => true;
  it('takes the only reading, the valid one, then tesseract for spacing and PaddleOCR otherwise', () => {
    expect(pickReading(undefined, undefined, ok)).toBeNull();
    expect(pickReading(undefined, 'A', ok)).toBe('paddle');
    expect(pickReading('A', undefined, ok)).toBe('tesseract');
    expect(pickReading('BAD', 'GOOD', (v) => v === 'GOOD')).toBe('paddle');
    expect(pickReading('GOOD', 'BAD', (v) => v === 'GOOD')).toBe('tesseract');
    expect(pickReading('2673 ELM STREET', '2673 ELMSTREET', ok)).toBe('tesseract');
    expect(pickReading('DIBSA0000', 'J0580908', ok)).toBe('paddle');
    expect(pickReading('X', 'Y', () => false)).toBe('tesseract');
  });
});
