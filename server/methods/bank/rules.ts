import { randomInt } from 'node:crypto';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { BankAccountRequest } from '../../../src/api/contract.js';
import { keyedHash } from '../../crypto/tokens.js';

/** Wrong entries of the two amounts before the method is rejected. */
export const BANK_MAX_ATTEMPTS = 3;
/** Pairs of deposits a user may get in all (the first and new ones after expiries). */
export const BANK_MAX_ROUNDS = 3;
/** Days deposits stay enterable when the account sets nothing else (setting `bank_deposit_ttl_days`). */
export const DEFAULT_DEPOSIT_TTL_DAYS = 7;

/** An account as checked and normalised: the full number never leaves the request and its sealed payout. */
export type BankAccount =
  | { kind: 'iban'; country: string; currency: string; iban: string; holderName: string }
  | { kind: 'us'; country: 'US'; currency: 'USD'; routingNumber: string; accountNumber: string; holderName: string };

// Currencies of IBAN countries that do not pay in euros; every other IBAN country here is paid in EUR.
const NON_EURO: Readonly<Record<string, string>> = {
  GB: 'GBP',
  GI: 'GIP',
  CH: 'CHF',
  LI: 'CHF',
  SE: 'SEK',
  NO: 'NOK',
  DK: 'DKK',
  IS: 'ISK',
  PL: 'PLN',
  CZ: 'CZK',
  HU: 'HUF',
  RO: 'RON',
  BG: 'BGN',
  TR: 'TRY',
  AE: 'AED',
  SA: 'SAR',
  IL: 'ILS',
  BR: 'BRL',
};

/** The currency deposits to an IBAN of `country` are made in. */
export function ibanCurrency(country: string): string {
  return NON_EURO[country] ?? 'EUR';
}

/** ABA routing number check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isValidAbaRouting(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0 && routing !== '000000000';
}

/** Field errors of a request, or its normalised account (spaces and dashes dropped, IBAN upper case). */
export function checkAccount(body: BankAccountRequest): { account: BankAccount } | { errors: Record<string, string[]> } {
  const holderName = body.holder_name.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (holderName.length < 2) return { errors: { holder_name: ['Enter the name on the account.'] } };
  if (body.kind === 'iban') {
    const iban = electronicFormatIBAN(body.iban ?? '') ?? '';
    if (!isValidIBAN(iban)) return { errors: { iban: ['This is not a valid IBAN: check the country code, the length and the digits.'] } };
    const country = iban.slice(0, 2);
    return { account: { kind: 'iban', country, currency: ibanCurrency(country), iban, holderName } };
  }
  const routingNumber = (body.routing_number ?? '').replace(/[\s-]/g, '');
  const accountNumber = (body.account_number ?? '').replace(/[\s-]/g, '');
  const errors: Record<string, string[]> = {};
  if (!isValidAbaRouting(routingNumber)) errors.routing_number = ['This is not a valid 9-digit ABA routing number.'];
  if (!/^\d{4,17}$/.test(accountNumber)) errors.account_number = ['Enter the account number: 4 to 17 digits.'];
  if (Object.keys(errors).length > 0) return { errors };
  return { account: { kind: 'us', country: 'US', currency: 'USD', routingNumber, accountNumber, holderName } };
}

/** The account's full number as one string (what its hash is made of). */
export function fullNumber(account: BankAccount): string {
  return account.kind === 'iban' ? account.iban : `${account.routingNumber}:${account.accountNumber}`;
}

/** The last four characters of the account number, the only part kept in clear. */
export function last4(account: BankAccount): string {
  return (account.kind === 'iban' ? account.iban : account.accountNumber).slice(-4);
}

/** Keyed hash of the full account number, bound to the user (lets an operator recognise an account, never read it). */
export function accountHash(secret: string, userId: number, account: BankAccount): string {
  return keyedHash(secret, `bank-account:${userId}`, fullNumber(account));
}

/** Two different random amounts in cents (1–99), from the crypto RNG. */
export function drawAmounts(): [number, number] {
  const first = randomInt(1, 100);
  let second = randomInt(1, 99);
  if (second >= first) second += 1; // 1–99 without `first`, uniformly
  return [first, second];
}

/**
 * Keyed hash of a pair of amounts, in either order, bound to the user and the round: the
 * amounts are stored only so, and a pair from an earlier round does not match a later one.
 */
export function amountsHash(secret: string, userId: number, round: number, amounts: readonly [number, number]): string {
  const [a, b] = [...amounts].sort((x, y) => x - y);
  return keyedHash(secret, `bank-deposits:${userId}:${round}`, `${a},${b}`);
}

/** Tries left after `used` tries. */
export function attemptsLeft(used: number): number {
  return Math.max(0, BANK_MAX_ATTEMPTS - used);
}

/** Cents as the decimal amount a statement shows (`0.07`). */
export function centsText(cents: number): string {
  return `0.${String(cents).padStart(2, '0')}`;
}
