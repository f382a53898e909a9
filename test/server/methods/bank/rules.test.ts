import { describe, expect, it } from 'vitest';
import { amountsHash, checkAccount, drawAmounts, ibanCurrency, isValidAbaRouting, last4 } from '../../../../server/methods/bank/rules.js';

describe('bank rules', () => {
  it('checks ABA routing numbers by their check digit', () => {
    for (const good of ['021000021', '011000015', '121000358']) expect(isValidAbaRouting(good)).toBe(true);
    for (const bad of ['021000022', '02100002', '0210000211', '000000000', '02100002a']) expect(isValidAbaRouting(bad)).toBe(false);
  });

  it('normalises and checks IBANs (checksum, country length), keeping only the last four in clear', () => {
    const ok = checkAccount({ kind: 'iban', holder_name: ' Jane   Doe ', iban: 'gb82 west 1234 5698 7654 32' });
    expect(ok).toEqual({ account: { kind: 'iban', country: 'GB', currency: 'GBP', iban: 'GB82WEST12345698765432', holderName: 'Jane Doe' } });
    if ('account' in ok) expect(last4(ok.account)).toBe('5432');
    expect(checkAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: 'GB82WEST1234569876543' })).toHaveProperty('errors.iban');
    expect(checkAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: 'XX82WEST12345698765432' })).toHaveProperty('errors.iban');
    expect(checkAccount({ kind: 'iban', holder_name: 'J', iban: 'GB82WEST12345698765432' })).toHaveProperty('errors.holder_name');
    expect(ibanCurrency('FR')).toBe('EUR');
  });

  it('draws two different amounts of 1–99 cents, covering the whole range', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 3000; i++) {
      const [a, b] = drawAmounts();
      expect(a).not.toBe(b);
      for (const c of [a, b]) {
        expect(Number.isInteger(c) && c >= 1 && c <= 99).toBe(true);
        seen.add(c);
      }
    }
    expect(seen.size).toBe(99);
  });

  it('hashes a pair in either order, bound to the user and the round', () => {
    const h = amountsHash('s', 1, 1, [12, 34]);
    expect(amountsHash('s', 1, 1, [34, 12])).toBe(h);
    expect(amountsHash('s', 1, 2, [12, 34])).not.toBe(h);
    expect(amountsHash('s', 2, 1, [12, 34])).not.toBe(h);
  });
});
