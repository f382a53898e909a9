/**
 * Reads `document_processor` fields from the OCR text of documents that carry no barcode or
 * MRZ (a licence front, an ID card). Printed labels are small and OCR often garbles them or
 * glues them on to their values ("SEXF", "poe02/29/1988", "«oinWDLOK7QX52PB"), so the reader
 * leans on layout and value shapes (AAMVA card design: family name, given names, then the
 * address) and gives these fields a lower confidence than barcode or MRZ values. The fields are
 * the AAMVA set the barcode carries, under the same names, so a front and a back compare
 * field by field. A field that cannot be read is left out.
 */
import { JURISDICTIONS } from '../jurisdictions.js';
import { ageOn, type ProcessorField } from './aamva.js';
import { readForState, type StateReading } from './licence-number.js';
import type { OcrResult } from './ocr.js';
import { readAddress } from './printed-address.js';
import { codeFields } from './printed-codes.js';
import { findDates, slashDates, type FoundDate } from './printed-dates.js';
import { DD_START, readDiscriminator } from './printed-discriminator.js';

/** Fields every licence front prints: one missing from tesseract's reading calls PaddleOCR in. */
export const FRONT_FIELDS = [
  'Document Number',
  'Last Name',
  'First Name',
  'Date of Birth',
  'Date of Expiry',
  'Date of Issue',
  'Address Street',
  'Sex',
  'DL Class',
  'Document Discriminator',
] as const;

/** How a document number candidate came to fit its state's formats, the least done ranked first. */
const FIT_RANK: Readonly<Record<StateReading['how'], number>> = { read: 200, cut: 100, repaired: 0 };

/**
 * Document number candidates: tokens of 6-15 letters and digits with at least three digits,
 * once a glued label is cut off ("DLN", "4d", and OCR debris such as "«oin" that holds no
 * capital). An O between digits is a 0 (no format puts a letter O inside a digit run). With
 * the issuing `state` known, a token is read by its formats (licence-number.ts: a look-alike
 * repaired only when one repair fits), and one that fits beats one that fits none.
 */
function documentNumber(lines: readonly string[], state: string | null): string | null {
  let best: { value: string; score: number } | null = null;
  lines.forEach((line, i) => {
    // The document discriminator line holds long number-like runs too.
    if (/^(?:\S{0,2}\s+)?DD/i.test(line) || /\bDD\s*[:.]?\s*[A-Z0-9]/.test(line) || DD_START.test(line)) return;
    if (findDates([line]).length > 0 && !/\b(?:DLN?|LIC|NO)\b/i.test(line)) return;
    const labelled = /(?:4d|DLN|DL|LIC|NO\.?|#)/i.test(line.slice(0, 8));
    for (const raw of line.split(/\s+/)) {
      // A leading S is often read as $ or § ("$10182152" for S10182152).
      let token = raw.replace(/^[$§](?=\d{6})/, 'S').replace(/^[^A-Z0-9]*?(?:4d[.:]?)?(?:DLN|DL|LIC)?[.:]?(?=[A-Z0-9]{6})/, '');
      token = token.replace(/^[^A-Z0-9]+/, '').replace(/[^A-Z0-9]+$/, '');
      if (!/^[A-Z0-9]{6,15}$/.test(token)) continue;
      token = token.replace(/(?<=\d)O(?=\d)/g, '0');
      const digits = token.replace(/\D/g, '').length;
      // Five digits are a postal code; nine are one with its dash lost only after a state code
      // ("DENVER, CO 802891234"): many states issue nine-digit licence numbers (Colorado's 727762807).
      // The two letters must be a jurisdiction's code: "4dDL 727762807" is a labelled licence number.
      const before = /(?:^|[^A-Z])([A-Z]{2})[,.]?\s*$/.exec(line.slice(0, line.indexOf(raw)))?.[1];
      const zip9 = /^\d{9}$/.test(token) && before !== undefined && before in JURISDICTIONS;
      if (digits < 3 || /^\d{5}$/.test(token) || zip9) continue;
      // Earlier lines and labelled ones win: the number sits at the top of an AAMVA front.
      // With the state known, a token that fits its formats wins, then a labelled one, then one
      // that fits with less done to it: an unlabelled run of digits can often be repaired into
      // a fit ("81176245" → "B1176245" in California) when the number beside it fits as read.
      const read = state ? readForState(token, state) : null;
      const score = (read ? 10000 + FIT_RANK[read.how] : 0) + (labelled ? 1000 : 0) + digits - i;
      if (!best || score > best.score) best = { value: read?.value ?? token, score };
    }
  });
  return (best as { value: string } | null)?.value ?? null;
}

/** The issuing jurisdiction printed in the card's header ("Washington", "STATE OF TEXAS"). */
export function headerState(lines: readonly string[]): string | null {
  const names = Object.entries(JURISDICTIONS).sort((a, b) => b[1].length - a[1].length);
  // The header comes before the first line holding a digit (the document number's).
  const end = lines.findIndex((l) => /\d/.test(l));
  for (const line of lines.slice(0, end < 0 ? 4 : Math.min(end, 4))) {
    const upper = line.toUpperCase();
    for (const [code, name] of names) {
      if (new RegExp(`(?:^|[^A-Z])${name.toUpperCase()}(?:$|[^A-Z])`).test(upper)) return code;
    }
  }
  return null;
}

/** Fields from OCR text; `today` decides which dates are past and future. */
export function printedFields(ocr: OcrResult, today: Date): Record<string, ProcessorField> {
  const lines = ocr.lines.map((l) => l.text.trim());
  const conf = (i: number): number => Math.max(1, Math.min(80, Math.round((ocr.lines[i]?.confidence ?? 50) * 0.8)));
  const out: Record<string, ProcessorField> = {};
  const put = (k: string, value: string | number, c: number): void => {
    out[k] = { value, confidence: c };
  };
  const putName = (family: string, given: string, c: number): void => {
    const [first, ...middle] = given.split(' ');
    put('Last Name', family, c);
    put('First Name', first!, c);
    if (middle.length) put('Middle Name', middle.join(' '), c);
    put('Full Name', `${given} ${family}`, c);
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
    putName(surname.text, given.text, Math.min(conf(surname.i), conf(given.i)));
  }

  // Names after their labels, wherever the layout prints them: "LN DOE", "1 FAMILY NAME DOE", or
  // a label printed above its value, joined to it by the OCR's geometry (label-pairing.ts).
  const named = (label: string): { text: string; i: number } | null => {
    const re = new RegExp(`^(?:\\d{1,2}[a-z]?\\s+)?(?:${label})[:.]?\\s+([A-Z][A-Z' -]*[A-Z])$`);
    for (const [i, l] of lines.entries()) {
      const m = re.exec(l);
      if (m) return { text: m[1]!, i };
    }
    return null;
  };
  const lastNamed = named('LAST NAME|FAMILY NAME|LN');
  const firstNamed = named('FIRST NAME|GIVEN NAMES?|FN');
  if (!out['Full Name'] && lastNamed && firstNamed) putName(lastNamed.text, firstNamed.text, Math.min(conf(lastNamed.i), conf(firstNamed.i)));

  // Licence layout: [family name] [given names] [street] [city, ST zip] (printed-address.ts).
  const address = readAddress(ocr.lines);
  const { street, city } = address;
  if (street) put('Address Street', street.value, conf(street.line));
  if (city) {
    put('Address City', city.city, conf(city.line));
    put('Address State', city.state, conf(city.line));
    put('Address Jurisdiction Code', city.state, conf(city.line));
    if (city.zip) put('Address Postal Code', city.zip, conf(city.line));
  }
  if (street && city?.zip) put('Address', `${street.value}, ${city.city}, ${city.state} ${city.zip}`, Math.min(conf(city.line), conf(street.line)));
  const names = out['Full Name'] ? null : address.names;
  if (names) putName(names.family, names.given, Math.min(conf(names.familyLine), conf(names.givenLine)));

  // Dates: a label right before a date names it (DOB, EXP, ISS, even garbled: "poe", "ExP", "1s");
  // the rest by order: birth = earliest (at least 10 years ago), expiry = latest, issue = a past one between.
  const labelOf = (d: FoundDate): 'birth' | 'expiry' | 'issue' | null => {
    const before = lines[d.line]!.slice(Math.max(0, d.index - 6), d.index).toUpperCase();
    if (/(?:DOB|BIRTH|D0B|P[O0][BES]|[O0]{2}8?)\s*[:.]?\s*$/.test(before)) return 'birth';
    if (/(?:EXP|EXPIRES|E[XK][PE])\s*[:.]?\s*$/.test(before)) return 'expiry';
    if (/(?:ISS|ISSUED|[1IL][S58][S5]?)\s*[:.]?\s*$/.test(before)) return 'issue';
    return null;
  };
  // Dates whose slashes the OCR misread (slashDates) count only after a date's label, or in a row
  // of dates (a line holding a date read whole): the stacked layouts print birth, expiry and issue
  // in one row, and PaddleOCR drops a slash there ("03/26/1956 03/26/2023 0821/2018").
  const clean = findDates(lines);
  const dateRow = new Set(clean.map((d) => d.line));
  const misread = slashDates(lines).filter((d) => labelOf(d) !== null || dateRow.has(d.line));
  const dates = [...clean, ...misread].sort((a, b) => a.iso.localeCompare(b.iso));
  const byLabel = (kind: 'birth' | 'expiry' | 'issue'): FoundDate | undefined => dates.find((d) => labelOf(d) === kind);
  const birth = byLabel('birth') ?? dates.find((d) => ageOn(d.iso, today) >= 10 && labelOf(d) === null);
  // A birth year before 1900 is no holder's ("03/10/1056": a blurred 9 read 0, which the century
  // repair cannot place): left unread, but kept as the earliest date, so no other takes its place.
  if (birth && ageOn(birth.iso, today) >= 10 && birth.iso >= '1900') {
    put('Date of Birth', birth.iso, conf(birth.line));
    put('age', ageOn(birth.iso, today), conf(birth.line));
  }
  const expiry = byLabel('expiry') ?? [...dates].reverse().find((d) => d !== birth && labelOf(d) === null);
  if (expiry && (!birth || expiry.iso > birth.iso)) put('Date of Expiry', expiry.iso, conf(expiry.line));
  const issue = byLabel('issue') ?? dates.find((d) => d !== birth && d !== expiry && d.iso <= todayIso && labelOf(d) === null);
  if (issue && issue !== birth && issue !== expiry && issue.iso <= todayIso) put('Date of Issue', issue.iso, conf(issue.line));

  for (const [field, value] of Object.entries(codeFields(lines))) put(field, value, 60);
  const all = lines.join('\n');
  const passportNo = /\bP\s+[A-Z]{3}\s+([A-Z0-9]{6,9})\b/.exec(all);
  const state = headerState(lines);
  // The number's formats are the issuer's: the header names it, else the address's state does.
  const dl = passportNo ? null : documentNumber(lines, state ?? city?.state ?? null);
  const discriminator = readDiscriminator(ocr, String(out['Address Street']?.value ?? ''), dl);
  if (discriminator) put('Document Discriminator', discriminator.value, discriminator.confidence);
  if (state) {
    put('Issuing State Code', state, 60);
    put('Issuing State Name', JURISDICTIONS[state]!, 60);
  }

  if (passportNo) put('Document Number', passportNo[1]!, 60);
  else if (dl) put('Document Number', dl, 50);
  return out;
}
