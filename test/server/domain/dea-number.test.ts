import { describe, expect, it } from 'vitest';
import { deaCheckDigitValid, deaChecks, deaFormatValid, normaliseDeaNumber } from '../../../server/domain/dea-number.js';

const outcomes = (checks: ReturnType<typeof deaChecks>) => Object.fromEntries(checks.map((c) => [c.name, c.outcome]));

describe('DEA number: check digit', () => {
  it('holds for known valid numbers: (d1+d3+d5) + 2×(d2+d4+d6) ends in d7', () => {
    // AB1234563: 1+3+5 = 9, 2×(2+4+6) = 24, 33 → 3. BJ6125341: 6+2+3 = 11, 2×(1+5+4) = 20, 31 → 1.
    for (const n of ['AB1234563', 'BJ6125341', 'MS0000000', 'F91234563', 'XD1234563']) {
      expect(deaFormatValid(n), n).toBe(true);
      expect(deaCheckDigitValid(n), n).toBe(true);
    }
  });

  it('fails for a mistyped digit and for swapped neighbours', () => {
    for (const n of ['AB1234564', 'AB1234560', 'AB2134563', 'BJ6125342']) expect(deaCheckDigitValid(n), n).toBe(false);
  });

  it('refuses the shape: unknown registrant type, wrong length, letters among the digits', () => {
    for (const n of ['ZB1234563', 'AB123456', 'AB12345634', 'A11234563', 'ABC234563', '', 'AB12345X3']) expect(deaFormatValid(n), n).toBe(false);
  });

  it('compares the number as upper case without spaces or hyphens', () => {
    expect(normaliseDeaNumber(' ab-123 4563 ')).toBe('AB1234563');
  });
});

describe('DEA number: checks', () => {
  it('passes format, check digit and initial; says honestly that no registry was asked', () => {
    const checks = deaChecks('BJ6125341', 'Jones', undefined);
    expect(outcomes(checks)).toEqual({ dea_format: 'passed', dea_check_digit: 'passed', dea_registrant_initial: 'passed', dea_registry: 'not_run' });
    expect(checks.find((c) => c.name === 'dea_registry')!.reason).toContain('Not checked against a registry');
  });

  it('flags an initial that is not the last name’s, comparing without accents', () => {
    expect(outcomes(deaChecks('BJ6125341', 'Smith', undefined)).dea_registrant_initial).toBe('flagged');
    expect(outcomes(deaChecks('AE1234563', 'Éluard', undefined)).dea_registrant_initial).toBe('passed');
  });

  it('does not compare the initial of a business (9) or of a user without a last name', () => {
    expect(outcomes(deaChecks('F91234563', 'Jones', undefined)).dea_registrant_initial).toBe('not_run');
    expect(outcomes(deaChecks('BJ6125341', null, undefined)).dea_registrant_initial).toBe('not_run');
  });

  it('fails a bad check digit and does not look it up; fails a bad shape and runs nothing else', () => {
    expect(outcomes(deaChecks('BJ6125342', 'Jones', 'pending'))).toEqual({
      dea_format: 'passed',
      dea_check_digit: 'failed',
      dea_registrant_initial: 'passed',
      dea_registry: 'not_run',
    });
    expect(outcomes(deaChecks('12345', 'Jones', undefined))).toEqual({
      dea_format: 'failed',
      dea_check_digit: 'not_run',
      dea_registrant_initial: 'not_run',
      dea_registry: 'not_run',
    });
  });

  it('reads the registry’s answer: active passes, unknown or inactive fails, unreachable or another name is flagged', () => {
    const at = { provider: 'p', checked_at: '2026-06-15T12:00:00.000Z' };
    const answered = (status: 'active' | 'inactive' | 'not_found', last_name_matches: boolean | null = true) =>
      outcomes(deaChecks('BJ6125341', 'Jones', { outcome: 'answered', ...at, status, registrant_name: 'JONES, BETTY', last_name_matches })).dea_registry;
    expect(answered('active')).toBe('passed');
    expect(answered('not_found', null)).toBe('failed');
    expect(answered('inactive')).toBe('failed');
    expect(answered('active', false)).toBe('flagged');
    expect(outcomes(deaChecks('BJ6125341', 'Jones', { outcome: 'unavailable', ...at })).dea_registry).toBe('flagged');
    expect(outcomes(deaChecks('BJ6125341', 'Jones', 'pending')).dea_registry).toBe('not_run');
    expect(deaChecks('', 'Jones', undefined)).toEqual([]);
  });
});
