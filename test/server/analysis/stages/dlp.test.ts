import { describe, expect, it } from 'vitest';
import { luhnValid, maskQuote, runDlp } from '../../../../server/analysis/stages/dlp.js';

describe('runDlp', () => {
  const lines = [
    'CALIFORNIA DRIVER LICENSE',
    'DL D1234567',
    'LN ERIKSSON',
    'FN ANNA MARIA',
    '1234 MAPLE AVENUE',
    'SACRAMENTO, CA 95814',
    'DOB 08/12/1984',
    'EXP 08/12/2029',
    'SEX F',
    'CARD 4111 1111 1111 1111',
    'REF 4111 1111 1111 1112',
  ];
  const found = runDlp(lines, { firstName: 'Anna', lastName: 'Eriksson' });
  const names = (n: string) => found.filter((f) => f.name === n);

  it('finds a Luhn-valid card number, masked, and ignores one that fails Luhn', () => {
    expect(names('CREDIT_CARD_NUMBER')).toEqual([{ name: 'CREDIT_CARD_NUMBER', quote: '**** **** **** 1111', likelihood: 'VERY_LIKELY' }]);
  });

  it('tells a labelled date of birth from other dates', () => {
    expect(names('DATE_OF_BIRTH').map((f) => f.quote)).toEqual(['**/**/**84']);
    expect(names('DATE')).toHaveLength(1);
  });

  it('finds licence number, street, state, gender and names', () => {
    expect(names('US_DRIVERS_LICENSE_NUMBER')).toHaveLength(1);
    expect(names('STREET_ADDRESS')[0]?.quote).toBe('**** ***** ***NUE');
    expect(names('US_STATE').map((f) => f.likelihood)).toContain('LIKELY');
    expect(names('GENDER')).toHaveLength(1);
    expect(names('LAST_NAME').length).toBeGreaterThan(0);
    expect(names('PERSON_NAME')[0]?.likelihood).toBe('LIKELY');
  });

  it('never returns an unmasked quote of more than four characters', () => {
    for (const f of found) expect(f.quote.replace(/[^A-Za-z0-9]/g, '').length <= 4 || f.quote.includes('*')).toBe(true);
  });
});

describe('luhnValid / maskQuote', () => {
  it('checks Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('1234')).toBe(false);
  });
  it('masks all but the last quarter', () => {
    expect(maskQuote('ERIKSSON')).toBe('******ON');
    expect(maskQuote('F')).toBe('*');
  });
});
