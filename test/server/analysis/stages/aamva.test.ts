import { describe, expect, it } from 'vitest';
import { aamvaDate, aamvaHeight, aamvaToProcessor, ageOn, parseAamva } from '../../../../server/analysis/stages/aamva.js';
import { aamvaPayload } from '../../../fixtures/aamva.js';
import { IDENTITIES } from '../../../fixtures/identities.js';

const today = new Date('2026-06-01T00:00:00Z');

describe('parseAamva / aamvaToProcessor', () => {
  it('maps a version-10 licence to document_processor fields', () => {
    const id = IDENTITIES[0]!;
    const fields = aamvaToProcessor(parseAamva(aamvaPayload(id)), today);
    const v = (k: string): unknown => fields[k]?.value;
    expect(v('Full Name')).toBe('ANNA MARIA ERIKSSON');
    expect(v('Date of Birth')).toBe('1984-08-12');
    expect(v('age')).toBe(41);
    expect(v('Date of Issue')).toBe('2021-03-04');
    expect(v('Date of Expiry')).toBe('2029-08-12');
    expect(v('Revision Date')).toBe('2020-09-01');
    expect(v('Address Street')).toBe('1234 MAPLE AVENUE');
    expect(v('Address City')).toBe('SACRAMENTO');
    expect(v('Address State')).toBe('CA');
    expect(v('Address Postal Code')).toBe('95814');
    expect(v('Address Jurisdiction Code')).toBe('CA');
    expect(v('Document Number')).toBe('D1234567');
    expect(v('DL Class')).toBe('C');
    expect(v('DL Restriction Code')).toBe('NONE');
    expect(v('DL Endorsed')).toBe('NONE');
    expect(v('Sex')).toBe('F');
    expect(v('Eyes Color')).toBe('BLU');
    expect(v('Height')).toBe(`5'-06"`);
    expect(v('Document Discriminator')).toBe('03/04/2021612AB/CCFD/29');
    expect(v('Issuing State Code')).toBe('CA');
    expect(v('Issuing State Name')).toBe('California');
    expect(fields['Full Name']?.confidence).toBeGreaterThan(90);
  });

  it('reads a version-1 payload with DAA full name and leaves absent fields out', () => {
    const text = '@\n\x1e\rANSI 6360300101DL00290120DLDAQ123456789\nDAALEE,JOHN,PAUL\nDBB19800102\nDBC1\r';
    const fields = aamvaToProcessor(parseAamva(text), today);
    expect(fields['Full Name']?.value).toBe('JOHN PAUL LEE');
    expect(fields['Issuing State Code']?.value).toBe('MO');
    // 19800102 is not a valid MMDDCCYY date, so it is read as CCYYMMDD.
    expect(fields['Date of Birth']?.value).toBe('1980-01-02');
    expect(fields['Height']).toBeUndefined();
    expect(fields['DL Class']).toBeUndefined();
  });

  it('refuses text that is not AAMVA', () => {
    expect(() => parseAamva('hello world')).toThrow();
  });

  it('handles dates, heights and ages at the edges', () => {
    expect(aamvaDate('02302020', false)).toBeNull();
    expect(aamvaDate('20200131', true)).toBe('2020-01-31');
    expect(aamvaHeight('175 CM')).toBe('175 cm');
    expect(aamvaHeight('070 IN')).toBe(`5'-10"`);
    expect(ageOn('2000-06-02', today)).toBe(25);
    expect(ageOn('2000-06-01', today)).toBe(26);
  });
});
