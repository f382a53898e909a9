/**
 * AAMVA DL/ID card PDF417 payload parser (versions 1-10). Turns the barcode text into the
 * spec's `document_processor` fields, keeping AAMVA conventions where the spec has none
 * (architecture.md, "Document analysis conventions").
 *
 * Written here rather than taken from npm: the packages found (`aamva-parser`, `aamvajs`) drop
 * DL class, restrictions, endorsements, revision date and the issuer IIN that we must report.
 */
import { AAMVA_IIN, CANADIAN, JURISDICTIONS } from '../jurisdictions.js';

/** The decoded AAMVA payload. */
export interface AamvaRecord {
  /** Issuer Identification Number from the header. */
  readonly iin: string;
  /** AAMVA standard version number (0-10). */
  readonly version: number;
  /** Subfile type that held the data (`DL` or `ID`). */
  readonly subfile: string;
  /** Element id (e.g. `DCS`) → raw value, trimmed. */
  readonly elements: Readonly<Record<string, string>>;
}

/** Thrown when the text is not an AAMVA payload. */
export class AamvaFormatError extends Error {
  override readonly name = 'AamvaFormatError';
}

const ELEMENT = /^[A-Z]{3}$/;

/** Parses the raw barcode text (as zxing returns it with `textMode: 'Plain'`). */
export function parseAamva(text: string): AamvaRecord {
  const start = text.indexOf('ANSI ') >= 0 ? text.indexOf('ANSI ') : text.indexOf('AAMVA');
  if (!text.startsWith('@') || start < 0) throw new AamvaFormatError('Not an AAMVA payload');
  const isAnsi = text.startsWith('ANSI ', start);
  const headerStart = start + (isAnsi ? 5 : 5);
  const iin = text.slice(headerStart, headerStart + 6);
  if (!/^\d{6}$/.test(iin)) throw new AamvaFormatError('Bad issuer identification number');
  const version = Number.parseInt(text.slice(headerStart + 6, headerStart + 8), 10);
  const elements: Record<string, string> = {};
  // Subfiles begin with "DL" or "ID" followed by data elements separated by LF (or CR/RS).
  let subfile = '';
  const subfileMatch = /(DL|ID)(D[A-Z]{2})/.exec(text.slice(headerStart + 8 + (version >= 2 ? 4 : 2)));
  const body = subfileMatch ? text.slice(text.indexOf(subfileMatch[0], headerStart + 8)) : '';
  if (subfileMatch) subfile = subfileMatch[1]!;
  // AAMVA separates records with LF, CR and the ASCII record separator (0x1E).
  // eslint-disable-next-line no-control-regex
  const lines = body.slice(2).split(/[\n\r\x1e]+/);
  for (const raw of lines) {
    const line = raw.replace(/^(DL|ID|Z[A-Z])(?=[A-Z]{3})/, '');
    const id = line.slice(0, 3);
    if (!ELEMENT.test(id)) continue;
    const value = line.slice(3).trim();
    if (!(id in elements)) elements[id] = value;
  }
  if (Object.keys(elements).length === 0) throw new AamvaFormatError('No data elements');
  return { iin, version: Number.isNaN(version) ? 0 : version, subfile, elements };
}

/** A `document_processor` entry. */
export interface ProcessorField {
  value: string | number | { x1: number; x2: number; y1: number; y2: number };
  confidence: number;
}

/** Sex codes: AAMVA 1 = male, 2 = female, 9 = not specified. */
const SEX: Record<string, string> = { '1': 'M', '2': 'F', '9': 'X', M: 'M', F: 'F', X: 'X' };

/**
 * AAMVA dates are MMDDCCYY in US cards and CCYYMMDD in Canadian ones; we recognise the order by
 * validity (a month can't exceed 12) and by the issuing country. Returns `YYYY-MM-DD` or null.
 */
export function aamvaDate(raw: string | undefined, canadian: boolean): string | null {
  if (!raw || !/^\d{8}$/.test(raw)) return null;
  const us = { y: raw.slice(4, 8), m: raw.slice(0, 2), d: raw.slice(2, 4) };
  const ca = { y: raw.slice(0, 4), m: raw.slice(4, 6), d: raw.slice(6, 8) };
  const ok = (p: { y: string; m: string; d: string }): boolean => {
    const y = Number(p.y);
    const m = Number(p.m);
    const d = Number(p.d);
    if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1) return false;
    return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
  };
  const order = canadian ? [ca, us] : [us, ca];
  const hit = order.find(ok);
  return hit ? `${hit.y}-${hit.m}-${hit.d}` : null;
}

/** Age in whole years on `today` for a `YYYY-MM-DD` birth date. */
export function ageOn(birth: string, today: Date): number {
  const [y, m, d] = birth.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const beforeBirthday = today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age--;
  return age;
}

/** Formats AAMVA height (`069 IN`, `175 CM`, older `5-09`) as printed on the card. */
export function aamvaHeight(raw: string | undefined): string | null {
  if (!raw) return null;
  const inch = /^0*(\d{2,3})\s*IN$/i.exec(raw);
  if (inch) {
    const total = Number(inch[1]);
    return `${Math.floor(total / 12)}'-${String(total % 12).padStart(2, '0')}"`;
  }
  const cm = /^0*(\d{2,3})\s*CM$/i.exec(raw);
  if (cm) return `${Number(cm[1])} cm`;
  const ftIn = /^(\d)-?(\d{2})$/.exec(raw);
  if (ftIn) return `${ftIn[1]}'-${ftIn[2]}"`;
  return null;
}

/**
 * Maps a parsed record to `document_processor` fields. `confidence` is the barcode decode's
 * (checksummed PDF417 with error correction: 99 when the field passed its own format check,
 * lower when it was present but odd). Fields the barcode does not carry are left out.
 */
export function aamvaToProcessor(rec: AamvaRecord, today: Date, decodeConfidence = 99): Record<string, ProcessorField> {
  const e = rec.elements;
  const out: Record<string, ProcessorField> = {};
  const put = (name: string, value: string | number | null | undefined, confidence = decodeConfidence): void => {
    if (
      value === null ||
      value === undefined ||
      value === '' ||
      (typeof value === 'string' && /^(NONE|unavl|unavail)$/i.test(value) && name !== 'DL Restriction Code' && name !== 'DL Endorsed')
    )
      return;
    out[name] = { value, confidence };
  };
  const issuer = AAMVA_IIN[rec.iin];
  const country = e['DCG'] ?? (issuer && CANADIAN.has(issuer) ? 'CAN' : issuer ? 'USA' : undefined);
  const canadian = country === 'CAN';

  let first = e['DAC'] ?? e['DCT'];
  let middle: string | undefined = e['DAD'];
  let last = e['DCS'] ?? e['DAB'];
  if (!first && !last && e['DAA']) {
    // Version 1 full name: "LAST,FIRST,MIDDLE" (or with spaces).
    const parts = e['DAA'].split(/[,$]/).map((s) => s.trim());
    last = parts[0];
    first = parts[1];
    middle = parts.slice(2).join(' ') || undefined;
  }
  if (first && first.includes(',') && !middle) {
    // Some versions put "FIRST,MIDDLE" in DCT.
    const [f, ...m] = first.split(',');
    first = f ?? first;
    middle = m.join(' ');
  }
  const fullName = [first, middle, last].filter((s) => s && s.length > 0).join(' ');
  put('Full Name', fullName || null);
  put('First Name', first);
  put('Middle Name', middle);
  put('Last Name', last);

  const dob = aamvaDate(e['DBB'], canadian);
  put('Date of Birth', dob, dob ? decodeConfidence : 0);
  if (dob) put('age', ageOn(dob, today));
  put('Date of Issue', aamvaDate(e['DBD'], canadian));
  put('Date of Expiry', aamvaDate(e['DBA'], canadian));
  put('Revision Date', aamvaDate(e['DDB'], canadian));

  put('Address Street', [e['DAG'], e['DAH']].filter(Boolean).join(' ') || null);
  put('Address City', e['DAI']);
  put('Address State', e['DAJ']);
  const postal = e['DAK'] ? formatPostal(e['DAK'], canadian) : null;
  put('Address Postal Code', postal);
  put('Address Jurisdiction Code', e['DAJ']);
  if (e['DAG'] && e['DAI'] && e['DAJ']) {
    put('Address', `${[e['DAG'], e['DAH']].filter(Boolean).join(' ')}, ${e['DAI']}, ${e['DAJ']} ${postal ?? ''}`.trim());
  }

  put('Document Number', e['DAQ']);
  put('DL Class', e['DCA']);
  put('DL Restriction Code', e['DCB']);
  put('DL Endorsed', e['DCD']);
  put('Document Discriminator', e['DCF']);
  const sex = e['DBC'] ? SEX[e['DBC'].toUpperCase()] : undefined;
  put('Sex', sex);
  put('Eyes Color', e['DAY']?.toUpperCase());
  put('Height', aamvaHeight(e['DAU']));
  if (issuer) {
    put('Issuing State Code', issuer);
    put('Issuing State Name', JURISDICTIONS[issuer]);
  }
  if (country) put('countryName', country === 'CAN' ? 'Canada' : country === 'USA' ? 'United States' : country);
  put('Document Name', rec.subfile === 'ID' ? 'Identification Card' : "Driver's License");
  return out;
}

function formatPostal(raw: string, canadian: boolean): string {
  const clean = raw.replace(/\s+/g, '');
  if (canadian) return clean.length === 6 ? `${clean.slice(0, 3)} ${clean.slice(3)}` : clean;
  // US ZIP+4 is stored as 9 digits, often padded with zeros when the +4 is unknown.
  if (/^\d{9}$/.test(clean)) return clean.endsWith('0000') ? clean.slice(0, 5) : `${clean.slice(0, 5)}-${clean.slice(5)}`;
  return clean;
}
