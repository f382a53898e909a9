/**
 * `dlp_analysis`: personal data found in the document text, each with a masked quote and a
 * likelihood (the Google DLP vocabulary the spec uses). Card numbers must pass the Luhn check.
 */
import { JURISDICTIONS } from '../jurisdictions.js';
import { findDates } from './printed-dates.js';

export type Likelihood = 'VERY_UNLIKELY' | 'UNLIKELY' | 'POSSIBLE' | 'LIKELY' | 'VERY_LIKELY';

/** One finding. */
export interface InfoType {
  readonly name: string;
  /** The matched text with most characters masked by `*`. */
  readonly quote: string;
  readonly likelihood: Likelihood;
}

/** Luhn checksum over the digits of `s`. */
export function luhnValid(s: string): boolean {
  const digits = s.replace(/\D/g, '');
  if (digits.length < 12) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Masks all but the last quarter (at most 4) of the letters and digits; separators stay so the
 * shape remains recognisable (a date keeps its slashes, a card number shows its last 4 digits).
 */
export function maskQuote(s: string): string {
  const chars = [...s];
  const significant = chars.filter((c) => /[\p{L}\p{N}]/u.test(c)).length;
  const keep = Math.min(4, Math.floor(significant / 4));
  let seen = 0;
  return chars
    .map((c) => {
      if (!/[\p{L}\p{N}]/u.test(c)) return c;
      seen++;
      return seen > significant - keep ? c : '*';
    })
    .join('');
}

const STREET_SUFFIX =
  '(?:STREET|ST|AVENUE|AVE|ROAD|RD|BOULEVARD|BLVD|DRIVE|DR|LANE|LN|WAY|COURT|CT|PLACE|PL|TERRACE|TER|PARKWAY|PKWY|HIGHWAY|HWY|CIRCLE|CIR|SQUARE|SQ)';
const STATE_NAMES = Object.values(JURISDICTIONS).map((n) => n.toUpperCase());

/** Optional known names to look for (the user's, when the caller has them). */
export interface DlpHints {
  readonly firstName?: string;
  readonly lastName?: string;
}

/** Scans OCR lines for personal data. */
export function runDlp(lines: readonly string[], hints: DlpHints = {}): InfoType[] {
  const found: InfoType[] = [];
  const seen = new Set<string>();
  const add = (name: string, raw: string, likelihood: Likelihood): void => {
    const key = `${name}:${raw}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ name, quote: maskQuote(raw), likelihood });
  };
  const text = lines.join('\n');

  for (const m of text.matchAll(/\b(?:\d[ -]?){12,18}\d\b/g)) {
    if (luhnValid(m[0])) add('CREDIT_CARD_NUMBER', m[0], /^\d{4}([ -])\d{4}\1\d{4}\1\d{1,7}$/.test(m[0]) ? 'VERY_LIKELY' : 'LIKELY');
  }
  for (const d of findDates(lines)) {
    const line = lines[d.line] ?? '';
    const before = line.slice(0, line.indexOf(d.raw)).toUpperCase();
    const labelled = /(DOB|BIRTH|BORN|D\.O\.B|NACIMIENTO)\W*$/.test(before) || (d.line > 0 && /BIRTH/i.test(lines[d.line - 1] ?? ''));
    add(labelled ? 'DATE_OF_BIRTH' : 'DATE', d.raw, labelled ? 'VERY_LIKELY' : 'LIKELY');
  }
  for (const m of text.matchAll(new RegExp(`\\b\\d{1,6}\\s+(?:[A-Z0-9.'-]+\\s+){1,4}${STREET_SUFFIX}\\b(?:\\s+(?:APT|UNIT|#)\\s*\\w+)?`, 'gi'))) {
    add('STREET_ADDRESS', m[0], 'LIKELY');
  }
  for (const m of text.matchAll(/,\s*([A-Z]{2})\s+\d{5}(?:-\d{4})?\b/g)) {
    if (JURISDICTIONS[m[1]!]) add('US_STATE', m[1]!, 'LIKELY');
  }
  const upper = text.toUpperCase();
  for (const name of STATE_NAMES) {
    if (new RegExp(`\\b${name}\\b`).test(upper)) add('US_STATE', name, 'POSSIBLE');
  }
  for (const m of text.matchAll(/\b(?:DL|LIC(?:ENSE)?|LICENSE\s+(?:NO|NUMBER)|DLN)\s*[#:.]?\s*([A-Z]{0,2}\d{5,13})\b/gi)) {
    add('US_DRIVERS_LICENSE_NUMBER', m[1]!, 'LIKELY');
  }
  for (const m of text.matchAll(/\b(?:SEX|GENDER)\s*[:.]?\s*([MFX]|MALE|FEMALE)\b/gi)) add('GENDER', m[1]!, 'LIKELY');
  for (const m of text.matchAll(/\b(?:FN|FIRST NAME|GIVEN NAMES?)\s*[:.]?\s+([A-Z][A-Z' -]+)$/gm)) add('FIRST_NAME', m[1]!.trim(), 'LIKELY');
  for (const m of text.matchAll(/\b(?:LN|LAST NAME|SURNAME)\s*[:.]?\s+([A-Z][A-Z' -]+)$/gm)) add('LAST_NAME', m[1]!.trim(), 'LIKELY');
  const esc = (v: string): string => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const hinted = (name: string, value: string | undefined): RegExpExecArray | null => {
    if (!value) return null;
    const m = new RegExp(`\\b${esc(value)}\\b`, 'i').exec(text);
    if (m) add(name, m[0], 'VERY_LIKELY');
    return m;
  };
  const first = hinted('FIRST_NAME', hints.firstName);
  const last = hinted('LAST_NAME', hints.lastName);
  if (first && last) {
    // Both parts of the user's name on the document: a person name, surer when on one line.
    const sameLine = new RegExp(`\\b${esc(first[0])}\\b[^\\n]*\\b${esc(last[0])}\\b`, 'i').exec(text);
    add('PERSON_NAME', sameLine ? sameLine[0] : `${first[0]} ${last[0]}`, sameLine ? 'VERY_LIKELY' : 'LIKELY');
  }
  return found;
}
