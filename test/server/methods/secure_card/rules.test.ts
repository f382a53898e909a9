import { describe, expect, it } from 'vitest';
import { brandFitsLength, compareCardName, decideCard, expiryPassed } from '../../../../server/methods/secure_card/rules.js';
import { reading } from './fixtures.js';

const jane = { firstName: 'Jane', lastName: 'Doe' };
const now = new Date('2026-06-15T12:00:00Z');

describe('secure card rules', () => {
  it('keeps a card valid to the last moment of its expiry month, in UTC', () => {
    expect(expiryPassed(6, 2026, new Date('2026-06-30T23:59:59.999Z'))).toBe(false);
    expect(expiryPassed(6, 2026, new Date('2026-07-01T00:00:00.000Z'))).toBe(true);
    // December rolls over into the next year.
    expect(expiryPassed(12, 2026, new Date('2026-12-31T23:59:59Z'))).toBe(false);
    expect(expiryPassed(12, 2026, new Date('2027-01-01T00:00:00Z'))).toBe(true);
  });

  it("checks the number's length against the brand the device read from the IIN", () => {
    expect(brandFitsLength('visa', 16)).toBe(true);
    expect(brandFitsLength('amex', 15)).toBe(true);
    expect(brandFitsLength('amex', 16)).toBe(false);
    expect(brandFitsLength('mastercard', 15)).toBe(false);
    expect(brandFitsLength('unknown', 16)).toBe(true);
    expect(brandFitsLength('visa', null)).toBe(false);
    expect(brandFitsLength(null, 16)).toBe(false);
  });

  it('matches the cardholder name as documents do: order, case and accents free; surname only is uncertain', () => {
    expect(compareCardName(jane, 'DOE JANE')).toBe('matched');
    expect(compareCardName({ firstName: 'José', lastName: 'Núñez' }, 'JOSE NUNEZ')).toBe('matched');
    expect(compareCardName(jane, 'J DOE')).toBe('uncertain');
    expect(compareCardName(jane, 'JOHN SMITH')).toBe('mismatch');
    expect(compareCardName(jane, null)).toBe('uncertain');
    expect(compareCardName({ firstName: null, lastName: null }, 'JANE DOE')).toBe('uncertain');
  });

  it('decides: unreadable, then the number, then expiry, then the name; an uncertain name goes to review', () => {
    expect(decideCard(reading(), jane, now)).toEqual({ outcome: 'complete', reason: null, nameMatch: 'matched', expired: false });
    expect(decideCard(reading({ number_read: false, last4: null }), jane, now).reason).toBe('CARD_UNREADABLE');
    expect(decideCard(reading({ expiry_month: null }), jane, now).reason).toBe('CARD_UNREADABLE');
    expect(decideCard(reading({ luhn_valid: false, expiry_year: 2020 }), jane, now).reason).toBe('CARD_NUMBER_INVALID');
    expect(decideCard(reading({ brand: 'amex' }), jane, now).reason).toBe('CARD_NUMBER_INVALID');
    expect(decideCard(reading({ expiry_month: 5, expiry_year: 2026 }), jane, now)).toMatchObject({ reason: 'CARD_EXPIRED', expired: true });
    expect(decideCard(reading({ cardholder_name: 'JOHN SMITH' }), jane, now)).toMatchObject({ outcome: 'rejected', reason: 'CARD_NAME_MISMATCH' });
    expect(decideCard(reading({ cardholder_name: 'J DOE' }), jane, now)).toMatchObject({ outcome: 'review', reason: null, nameMatch: 'uncertain' });
  });
});
