/**
 * Reads `document_processor` fields from the OCR text of documents that carry no barcode or
 * MRZ (a licence front, an ID card). Printed labels are small and OCR often garbles them, so
 * the reader leans on layout and value shapes (AAMVA card design: family name, given names,
 * then the address) and gives these fields a lower confidence than barcode or MRZ values.
 * A field that cannot be read is left out.
 */
import { JURISDICTIONS } from '../jurisdictions.js';
import { ageOn, type ProcessorField } from './aamva.js';
import type { OcrResult } from './ocr.js';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** A date found in text, as `YYYY-MM-DD`, with the line it came from. */
export interface FoundDate {
  readonly iso: string;
  readonly line: number;
  readonly raw: string;
}

/** Finds MM/DD/YYYY, DD MMM YYYY and YYYY-MM-DD dates. */
export function findDates(lines: readonly string[]): FoundDate[] {
  const out: FoundDate[] = [];
  lines.forEach((text, line) => {
    for (const m of text.matchAll(/\b(\d{2})[/.-](\d{2})[/.-](\d{4})\b/g)) {
      const [mm, dd, yyyy] = [Number(m[1]), Number(m[2]), m[3]!];
      if (mm >= 1 && mm <= 12 && dd >= 1 && dd <= 31) out.push({ iso: `${yyyy}-${m[1]}-${m[2]}`, line, raw: m[0] });
    }
    for (const m of text.matchAll(/\b(\d{1,2})\s+(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\s+(\d{4})\b/gi)) {
      const month = MONTHS.indexOf(m[2]!.toUpperCase()) + 1;
      out.push({ iso: `${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`, line, raw: m[0] });
    }
    for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) out.push({ iso: m[0], line, raw: m[0] });
  });
  return out;
}

const STREET = /^\d{1,6}\s+[A-Z0-9][A-Z0-9 .'#-]{3,}$/;
const CITY_LINE = /^([A-Z][A-Z .'-]+),?\s+([A-Z]{2})\s+(\d{5}(?:-\d{4})?)$/;

/** Strips a short leading label token (`LN`, `FN`, or its garbled OCR form) from a value line. */
function stripLabel(text: string): string {
  return text.replace(/^(?:[A-Za-z0-9]{1,3}[.:]?\s+)(?=[A-Z])/, '').trim();
}

/** Fields from OCR text; `today` decides which dates are past and future. */
export function printedFields(ocr: OcrResult, today: Date): Record<string, ProcessorField> {
  const lines = ocr.lines.map((l) => l.text.trim());
  const conf = (i: number): number => Math.max(1, Math.min(80, Math.round((ocr.lines[i]?.confidence ?? 50) * 0.8)));
  const out: Record<string, ProcessorField> = {};
  const put = (k: string, value: string | number, c: number): void => {
    out[k] = { value, confidence: c };
  };
  const todayIso = today.toISOString().slice(0, 10);

  // Passport-style labels: value on the line after the label.
  const after = (label: RegExp): { text: string; i: number } | null => {
    const i = lines.findIndex((l) => label.test(l));
    return i >= 0 && i + 1 < lines.length ? { text: lines[i + 1]!, i: i + 1 } : null;
  };
  const surname = after(/^surname\b/i);
  const given = after(/^given names?\b/i);
  if (surname && given && /^[A-Z' -]+$/.test(surname.text) && /^[A-Z' -]+$/.test(given.text)) {
    put('Last Name', surname.text, conf(surname.i));
    put('First Name', given.text, conf(given.i));
    put('Full Name', `${given.text} ${surname.text}`, Math.min(conf(surname.i), conf(given.i)));
  }

  // Licence layout: [family name] [given names] [street] [city, ST zip].
  const cityIdx = lines.findIndex((l) => CITY_LINE.test(l));
  if (cityIdx >= 1 && STREET.test(lines[cityIdx - 1]!)) {
    const street = lines[cityIdx - 1]!;
    const [, city, state, zip] = CITY_LINE.exec(lines[cityIdx]!)!;
    if (JURISDICTIONS[state!]) {
      put('Address Street', street, conf(cityIdx - 1));
      put('Address City', city!.trim(), conf(cityIdx));
      put('Address State', state!, conf(cityIdx));
      put('Address Postal Code', zip!, conf(cityIdx));
      put('Address', `${street}, ${city!.trim()}, ${state} ${zip}`, Math.min(conf(cityIdx), conf(cityIdx - 1)));
    }
    if (!out['Full Name'] && cityIdx >= 3) {
      const family = stripLabel(lines[cityIdx - 3]!);
      const givenNames = stripLabel(lines[cityIdx - 2]!);
      if (/^[A-Z][A-Z' -]+$/.test(family) && /^[A-Z][A-Z' -]+$/.test(givenNames)) {
        put('Last Name', family, conf(cityIdx - 3));
        put('First Name', givenNames, conf(cityIdx - 2));
        put('Full Name', `${givenNames} ${family}`, Math.min(conf(cityIdx - 3), conf(cityIdx - 2)));
      }
    }
  }

  // Dates: birth = earliest (at least 10 years ago), expiry = latest in the future, issue = a past one in between.
  const dates = findDates(lines).sort((a, b) => a.iso.localeCompare(b.iso));
  const birth = dates.find((d) => ageOn(d.iso, today) >= 10);
  if (birth) {
    put('Date of Birth', birth.iso, conf(birth.line));
    put('age', ageOn(birth.iso, today), conf(birth.line));
  }
  const expiry = [...dates].reverse().find((d) => d !== birth);
  if (expiry && (!birth || expiry.iso > birth.iso)) put('Date of Expiry', expiry.iso, conf(expiry.line));
  const issue = dates.find((d) => d !== birth && d !== expiry && d.iso <= todayIso);
  if (issue) put('Date of Issue', issue.iso, conf(issue.line));

  const all = lines.join('\n');
  const sex = /\bSEX\s*[:.]?\s*([MFX])\b/i.exec(all) ?? /^\s*([MF])\s*$/m.exec(all);
  if (sex) put('Sex', sex[1]!.toUpperCase(), 60);
  const height = /\b(\d)'\s*-?\s*(\d{2})"/.exec(all);
  if (height) put('Height', `${height[1]}'-${height[2]}"`, 60);
  const eyes = /\b(?:EYES?|EVES|EYS)\s*[:.]?\s*(BLK|BLU|BRO|GRY|GRN|HAZ|MAR|PNK|DIC|UNK)\b/i.exec(all);
  if (eyes) put('Eyes Color', eyes[1]!.toUpperCase(), 60);
  const cls = /\bCLASS\s*[:.]?\s*([A-Z0-9]{1,2})\b/i.exec(all);
  if (cls) put('DL Class', cls[1]!.toUpperCase(), 60);
  const passportNo = /\bP\s+[A-Z]{3}\s+([A-Z0-9]{6,9})\b/.exec(all);
  const dl = /^(?:\S{1,3}\s+)?([A-Z]{0,2}\d{6,13})$/m.exec(all);
  if (passportNo) put('Document Number', passportNo[1]!, 60);
  else if (dl) put('Document Number', dl[1]!, 50);
  return out;
}
