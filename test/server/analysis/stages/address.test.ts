import { describe, expect, it } from 'vitest';
import { compareAddress, documentAddress } from '../../../../server/analysis/stages/address.js';

const f = (v: string) => ({ value: v, confidence: 99 });
const fields = { 'Address Street': f('1234 MAPLE AVENUE'), 'Address City': f('SACRAMENTO'), 'Address State': f('CA'), 'Address Postal Code': f('95814') };

describe('documentAddress / compareAddress', () => {
  it('validates the shape of the document address', () => {
    expect(documentAddress(fields)?.valid).toBe(true);
    expect(documentAddress({ ...fields, 'Address State': f('XX') })?.checks.state_known).toBe(false);
    expect(documentAddress({ ...fields, 'Address Postal Code': f('9581') })?.valid).toBe(false);
    expect(documentAddress({ 'Address City': f('SACRAMENTO') })).toBeNull();
  });

  it('matches the user address despite abbreviations and case', () => {
    const doc = documentAddress(fields)!;
    expect(compareAddress('1234 Maple Ave, Sacramento, CA 95814-1234, USA', doc).match).toBe(true);
  });

  it('does not match another house number or street', () => {
    const doc = documentAddress(fields)!;
    expect(compareAddress('1235 Maple Ave, Sacramento, CA 95814', doc).match).toBe(false);
    expect(compareAddress('9 Harbor Way, Boston, MA 02110', doc).match).toBe(false);
  });
});
