import type { SecureCardReading } from '../../../../src/api/contract.js';

/** A good reading of Jane Doe's Visa ending 1111 (valid until 08/2028), with `over` changed. */
export const reading = (over: Partial<SecureCardReading> = {}): SecureCardReading => ({
  number_read: true,
  last4: '1111',
  pan_length: 16,
  brand: 'visa',
  luhn_valid: true,
  expiry_month: 8,
  expiry_year: 2028,
  cardholder_name: 'JANE DOE',
  ...over,
});
