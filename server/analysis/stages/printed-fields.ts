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
import { CODE_FIELDS, EYE_CODES, garbledLabelValue } from './garbled-labels.js';
import { readForState, type StateReading } from './licence-number.js';
import type { OcrResult } from './ocr.js';
import { readAddress } from './printed-address.js';

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

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** A date found in text, as `YYYY-MM-DD`, with the line it came from. */
export interface FoundDate {
  readonly iso: string;
  readonly line: number;
  readonly raw: string;
  /** Start of the date in its line. */
  readonly index: number;
}

/** Digits a reader confuses with the 0, 1, 2 and 9 a century is printed with (closed loops, a 1's flag). */
const CENTURY_LOOKALIKES: Readonly<Record<string, string>> = { '0': '86', '1': '7', '2': '', '9': '' };

/**
 * A year as printed on a licence (1900-2099), its century's digits repaired when a look-alike
 * took one ("2828" for 2028: a blurred 0 read 8) and only one century fits; otherwise as read.
 */
function repairYear(yyyy: string): string {
  const fits = ['19', '20'].filter((c) => [0, 1].every((k) => yyyy[k] === c[k] || CENTURY_LOOKALIKES[c[k]!]!.includes(yyyy[k]!)));
  if (/^(?:19|20)/.test(yyyy) || fits.length !== 1) return yyyy;
  return fits[0]! + yyyy.slice(2);
}

/**
 * Finds MM/DD/YYYY, DD MMM YYYY and YYYY-MM-DD dates. No word boundary is asked for before a
 * date: a label glued on ("DOB08/12/1984", "00812/11/1968" for a misread "DOB") still leaves it.
 */
export function findDates(lines: readonly string[]): FoundDate[] {
  const out: FoundDate[] = [];
  lines.forEach((text, line) => {
    for (const m of text.matchAll(/(\d{2})[/.-](\d{2})[/.-](\d{4})(?!\d)/g)) {
      const [mm, dd, yyyy] = [Number(m[1]), Number(m[2]), repairYear(m[3]!)];
      if (mm >= 1 && mm <= 12 && dd >= 1 && dd <= 31) out.push({ iso: `${yyyy}-${m[1]}-${m[2]}`, line, raw: m[0], index: m.index });
    }
    for (const m of text.matchAll(/(?<!\d)(\d{1,2})\s*(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\s*(\d{4})(?!\d)/gi)) {
      const month = MONTHS.indexOf(m[2]!.toUpperCase()) + 1;
      out.push({ iso: `${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`, line, raw: m[0], index: m.index });
    }
    for (const m of text.matchAll(/(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/g)) out.push({ iso: m[0], line, raw: m[0], index: m.index });
  });
  return out;
}

/**
 * The discriminator's label at the start of a line: DD, or the AAMVA field number 5 before it
 * (read S too: "SDO 1754…"), with its D read as O or 0 ("DO 6X75…", "5.00 A8117624531"), as small print often is.
 */
// "5 00" needs its separator: "500 MAIN ST" is a street.
const DD_START = /^(?:[5S]\s*[.:]?\s*)?(?:DD|D[O0]|[O0]D)(?![A-Z])|^5(?:\s*[.:]\s*|\s+)[O0]{2}(?![A-Z0-9])/;

/** A line's recogniser confidence (0-100) that vouches for a discriminator read after its label. */
const DD_SURE = 90;
/** The same for a discriminator taken with its label unread (the unlabelled run below). */
const DD_SURE_UNLABELLED = 95;

/** Letters and digits a small-print reader swaps, folded to one, to tell two readings of a number apart. */
const lookAlike = (v: string): string => v.replace(/[IL]/g, '1').replace(/O/g, '0').replace(/S/g, '5').replace(/B/g, '8').replace(/Z/g, '2');

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
function headerState(lines: readonly string[]): string | null {
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

/**
 * A value after a label on the same line, with the label allowed to be glued on to it; `NONE` is
 * kept. A value printed under its label was joined to it by geometry (label-pairing.ts): the
 * next line's first word is not taken ("RSTR" over "DOB: …" read RSTR as "DOB").
 */
function labelled(all: string, label: string, value: string, gluedAfter?: string): string | null {
  // A label may follow its AAMVA field number glued on and misread (`gluedAfter`: "BaEND" for "9a END").
  const start = gluedAfter ? `(?:(?<![A-Za-z])|(?<=${gluedAfter}))` : '(?<![A-Za-z])';
  const m = new RegExp(`${start}(?:${label})[ \\t]*[:.]?[ \\t]*(${value})(?![A-Za-z0-9])`, 'i').exec(all);
  return m ? m[1]!.toUpperCase() : null;
}

/** A restriction or endorsement value, unless its codes run past the `max` characters the AAMVA field holds (NONE is always one). */
function codes(value: string | null, max: number): string | null {
  if (value === null || /^O?NONE$/.test(value)) return value;
  return value.replace(/,/g, '').length <= max ? value : null;
}

/**
 * A code with a label's S glued on before it, as PaddleOCR boxes small print: "SF", "SM" are
 * SEX's S and the sex (on development fronts read as class, restrictions or endorsements, 5 of 5
 * wrong), so no code; for a class, "SC" is CLASS's last S and the class. The hard set prints no
 * code starting with S; a real endorsement "S" (school bus) combined is written after the
 * letters before it ("PS"), so only the sex's letters are dropped from restrictions and endorsements.
 */
function labelGlued(value: string | null, isClass: boolean): string | null {
  if (value === null || !/^S[A-Z]$/.test(value)) return value;
  if (/^S[MF]$/.test(value)) return null;
  return isClass ? value[1]! : value;
}

/** Whether `yyyy-mm-dd` is a day of the calendar, in 1900-2099. */
function calendarDay(yyyy: number, mm: number, dd: number): boolean {
  const d = new Date(Date.UTC(yyyy, mm - 1, dd));
  return yyyy >= 1900 && yyyy <= 2099 && d.getUTCMonth() === mm - 1 && d.getUTCDate() === dd;
}

/**
 * MM/DD/YYYY dates whose slashes the OCR misread: both read as 1 or 7 ("1272512022" for
 * 12/25/2022), or one lost ("0821/2018" for 08/21/2018). A run of digits is ambiguous (a licence
 * number can be one), so these are taken only after a date's label, and only a calendar day.
 */
export function slashDates(lines: readonly string[]): FoundDate[] {
  const out: FoundDate[] = [];
  const shapes = [/(?<!\d)(\d{2})[17](\d{2})[17](\d{4})(?!\d)/g, /(?<![\d/])(\d{2})(\d{2})\/(\d{4})(?!\d)/g, /(?<!\d)(\d{2})\/(\d{2})(\d{4})(?![\d/])/g];
  lines.forEach((text, line) => {
    for (const shape of shapes) {
      for (const m of text.matchAll(shape)) {
        const [mm, dd, yyyy] = [Number(m[1]), Number(m[2]), Number(m[3])];
        if (calendarDay(yyyy, mm, dd)) out.push({ iso: `${m[3]}-${m[1]}-${m[2]}`, line, raw: m[0], index: m.index });
      }
    }
  });
  return out;
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
  if (birth && ageOn(birth.iso, today) >= 10) {
    put('Date of Birth', birth.iso, conf(birth.line));
    put('age', ageOn(birth.iso, today), conf(birth.line));
  }
  const expiry = byLabel('expiry') ?? [...dates].reverse().find((d) => d !== birth && labelOf(d) === null);
  if (expiry && (!birth || expiry.iso > birth.iso)) put('Date of Expiry', expiry.iso, conf(expiry.line));
  const issue = byLabel('issue') ?? dates.find((d) => d !== birth && d !== expiry && d.iso <= todayIso && labelOf(d) === null);
  if (issue && issue !== birth && issue !== expiry && issue.iso <= todayIso) put('Date of Issue', issue.iso, conf(issue.line));

  const all = lines.join('\n');
  // The foot mark is often lost ("HGT 5-10\"") when the dash is kept; the inch mark too
  // ("HGT5-10"), and then only a height's own values are taken (3-7 ft, 00-11 in, no digit or
  // date separator around it, which a date or a postal code would have).
  // With its foot mark kept, the inch mark may be read as anything ("6'-03-"). With both marks
  // kept, the feet's 5 may be read S ("S-03\"": the classic 5/S confusion of small print), and
  // the inches parted by a space the reader put in ("6'-0 0\""). The foot mark, a small tick, is
  // read as any tick or accent ("5`06\""). Inches run 00-11: "5'-97\"" is a misread, not a height.
  const HEIGHT =
    /(?<!\d)(\d|(?<![A-Za-z])S)\s*(?:['"’‘`´]\s*-?|-)\s*(0 ?\d|1 ?[01])\s*["”]|(?<![\d/.-])([3-7])\s*-\s*(0\d|1[01])(?![\d/.-])|(?<!\d)([3-7])\s*['’‘`´]\s*-?\s*(0\d|1[01])(?!\d)/;
  const height = HEIGHT.exec(all);
  if (height) put('Height', `${(height[1] ?? height[3] ?? height[5])!.replace('S', '5')}'-${(height[2] ?? height[4] ?? height[6])!.replace(' ', '')}"`, 60);
  // With their labels unread (small print above the values), sex and eye colour are still known
  // by their shape on the line holding the height: a lone M/F/X, an eye colour code. Class,
  // restrictions and endorsements have no such shape: they need their label.
  const heightLine = (lines.find((l) => HEIGHT.test(l)) ?? '').replace(HEIGHT, ' ');
  const lone = (re: string): string | null => new RegExp(`(?:^|\\s)(${re})(?=\\s|$)`).exec(heightLine)?.[1] ?? null;
  // "15SXF": the E of a numbered SEX lost.
  // "EXM": SEX with its S lost and its value glued on (a numbered front's "15 SEX M").
  // "XF" on the height line: SEX lost to its last letter, glued on to the value.
  // "wsex F", "sux F": SEX one edit off (garbled-labels.ts).
  const sex =
    labelled(all, 'SEX|(?<=\\d)SX|EX', '[MFX]') ??
    /^\s*([MF])\s*$/m.exec(all)?.[1] ??
    lone('[MFX]') ??
    /(?:^|\s)X([MF])(?=\s|$)/.exec(heightLine)?.[1] ??
    garbledLabelValue(lines, CODE_FIELDS.sex);
  if (sex) put('Sex', sex.toUpperCase(), 60);
  const eyeCodes = EYE_CODES.join('|');
  // PaddleOCR puts a space into a code it reads letter by letter ("EYES B RO").
  const spacedEyes = EYE_CODES.map((c) => `${c[0]} ?${c[1]} ?${c[2]}`).join('|');
  const eyes =
    labelled(all, 'EYES?|EVES|EYS|EES', spacedEyes)?.replace(/ /g, '') ??
    lone(eyeCodes) ??
    new RegExp(`^\\s*(${eyeCodes})\\s*$`, 'm').exec(all)?.[1] ??
    garbledLabelValue(lines, CODE_FIELDS.eyes);
  if (eyes) put('Eyes Color', eyes, 60);
  // "cass E": the small capital L of CLASS is lost as often as not.
  // "9.CLAS5 D": the last S read as 5. "SCLASS C": glued to the end of the label before it.
  // Not read after a CLASS garbled further ("sass", "Las"): tesseract reads the ISS label "sass"
  // too, and took the issue date's month as the class (docs/analysis.md, "Given names run together").
  // Garbled further ("CAS B", "S LASS B"), a word is read as CLASS by its nearness to the label (garbled-labels.ts).
  // "CLASS SC": PaddleOCR's box of the value held the label's last S too; "SF", "SM" held
  // SEX's S and the sex beside it, no class (labelGlued).
  const cls = labelGlued(
    labelled(all, 'CLAS5|CLASS|CLAS(?!S)|CASS', '[A-Z0-9]{1,2}') ??
      /CLASS[ \t]*[:.]?[ \t]*([A-Z0-9]{1,2})(?![A-Za-z0-9])/.exec(all)?.[1] ??
      garbledLabelValue(lines, CODE_FIELDS.class),
    true,
  );
  if (cls) put('DL Class', cls, 60);
  // "ENDONONE": OCR sometimes doubles a letter between a glued label and NONE.
  // "128STR NONE": the R of a numbered RSTR lost; only taken before NONE (STREET holds STR too).
  // A run longer than the field holds is something else after the label (a discriminator:
  // "END DD76001920385107918858"): AAMVA gives restrictions 12 characters, endorsements 5.
  // "RSTR NO NE": a NONE the reader parted is NONE, not the code NO (nor, for endorsements, "NO" then a stray "NE").
  const parted = (v: string | null): string | null => (v === 'NO NE' ? 'NONE' : v);
  let rstr = labelGlued(
    codes(parted(labelled(all, 'RESTRICTIONS|RESTR|RSTR', 'NONE|NO NE|[A-Z0-9]{1,4}(?:,?[A-Z0-9]{1,4})*')), 12) ??
      labelled(all, '[RI1]?STR', 'NONE') ??
      garbledLabelValue(lines, CODE_FIELDS.restrictions),
    false,
  );
  // "BaEND P": the field number 9a glued on, its 9 read B.
  let end = labelGlued(
    codes(parted(labelled(all, 'ENDORSEMENTS|ENDORSE|END', 'O?NONE|NO NE|[A-Z0-9]{1,4}(?:,?[A-Z0-9]{1,4})*', '[9B]a')), 5)?.replace(/^ONONE$/, 'NONE') ??
      // "ND NONE": END with its faint E lost, only before NONE (ND alone is North Dakota's code).
      labelled(all, 'ND', 'NONE') ??
      garbledLabelValue(lines, CODE_FIELDS.endorsements),
    false,
  );
  // A front prints NONE only as restrictions or endorsements: with one of them read and a NONE
  // left on the page that it did not take, the other is that NONE (its label unread).
  const nones = all.match(/(?<![A-Z])O?NONE(?![A-Z])/g)?.length ?? 0;
  if (nones <= 2 && (rstr === null) !== (end === null) && nones - Number(rstr === 'NONE' || end === 'NONE') === 1) {
    if (rstr === null) rstr = 'NONE';
    else end = 'NONE';
  } else if (nones === 2 && rstr === null && end === null) {
    // Both labels unread and two NONE on the page: both are NONE, whichever is which.
    rstr = 'NONE';
    end = 'NONE';
  }
  if (rstr) put('DL Restriction Code', rstr, 60);
  if (end) put('DL Endorsed', end, 60);
  // The discriminator's run, with the spaces a reader puts into it taken out ("N4106 408913KT"): a
  // group after a space joins it only when it holds a digit or a slash, so a signature or name
  // printed further along the line does not, or when it is one or two capitals ending the line
  // ("A8117624531 YD": many states end the discriminator with two letters).
  // A date is no discriminator: "DD 00805/14/1959" is a garbled "DOB 05/14/1959". The label may
  // be garbled too at a line's start (DD_START).
  // Each run keeps the line its value ends on, whose recogniser confidence is its witness (below).
  const lineAt = (index: number): number => all.slice(0, index).split('\n').length - 1;
  const ddRuns = [
    ...[...all.matchAll(/(?<![A-Z])DD\s*[:.]?\s*([A-Z0-9/]+(?: +[A-Z0-9]*[0-9/][A-Z0-9/]*)*(?: +[A-Z]{1,2}(?=[ \t]*$))?)(?![^\s])/gm)].map((m) => ({
      m,
      line: lineAt(m.index + m[0].length),
    })),
    ...lines.flatMap((l, line) => {
      const m = DD_START.exec(l);
      return m
        ? [...l.slice(m[0].length).matchAll(/^\s*[:.]?\s*([A-Z0-9/]+(?: +[A-Z0-9]*[0-9/][A-Z0-9/]*)*(?: +[A-Z]{1,2}(?=\s*$))?)(?![^\s])/g)].map((m) => ({
            m,
            line,
          }))
        : [];
    }),
  ].map(({ m, line }) => ({ value: m[1]!.replace(/ +/g, ''), line }));
  // Nor is the street line a label was wrongly paired with ("DD 7220ELMSTREET": "8 ADDRESS" read as DD).
  const streetRun = String(out['Address Street']?.value ?? '').replace(/\s+/g, '');
  // Discriminators are numbers with a few letters (AAMVA field 5: a 20-digit run, "A8117624531YD",
  // "08/31/2009621SE/EEFD/19"): a run holding more letters than digits is a street or a name glued
  // on to its number ("DD 7220ELMSTREET": "8 ADDRESS" read as DD, the street line then misread).
  const digitHeavy = (v: string): boolean => (v.match(/\d/g)?.length ?? 0) >= (v.match(/[A-Z]/g)?.length ?? 0);
  // A discriminator is 10-25 characters with no check digit and no word to spell, read from 6-10 px
  // print: a recogniser unsure of its line misreads one glyph of it (8/9, O/0, a group cut or one
  // from the next field glued on) as often as not, and a wrong value given as read is worse than
  // none. Only a line read at DD_SURE or more vouches for it (development fronts: every exact one
  // was read at 92 or more, 14 of 15 wrong ones below 90).
  const sure = (line: number, min: number): boolean => (ocr.lines[line]?.confidence ?? 0) >= min;
  const ddValue = ddRuns.find(
    ({ value: v, line }) =>
      /^[A-Z0-9][A-Z0-9/]{4,30}[A-Z0-9]$/.test(v) &&
      /\d/.test(v) &&
      digitHeavy(v) &&
      findDates([v]).length === 0 &&
      !(streetRun && v.includes(streetRun)) &&
      sure(line, DD_SURE),
  )?.value;
  const passportNo = /\bP\s+[A-Z]{3}\s+([A-Z0-9]{6,9})\b/.exec(all);
  const state = headerState(lines);
  // The number's formats are the issuer's: the header names it, else the address's state does.
  const dl = passportNo ? null : documentNumber(lines, state ?? city?.state ?? null);
  if (ddValue) put('Document Discriminator', ddValue, 50);
  else {
    // Its label unread (the stacked layout prints "5 DD" at a third of the value's size): a line
    // that is one long run of mostly digits, other than the licence number, is the discriminator,
    // the one other long number AAMVA's front design prints. Lower confidence: unlabelled.
    // No label vouches for it, so its line must be read surer still; and the licence number read
    // with one look-alike otherwise ("154385887481" beside "I54385887481") is no other number.
    const run = lines.find(
      (l, i) =>
        /^[A-Z0-9][A-Z0-9/]{9,30}[A-Z0-9]$/.test(l) &&
        (l.match(/\d/g)?.length ?? 0) >= 8 &&
        digitHeavy(l) &&
        findDates([l]).length === 0 &&
        !(dl && lookAlike(l).includes(lookAlike(dl))) &&
        sure(i, DD_SURE_UNLABELLED),
    );
    if (run && dl) put('Document Discriminator', run, 30);
  }
  if (state) {
    put('Issuing State Code', state, 60);
    put('Issuing State Name', JURISDICTIONS[state]!, 60);
  }

  if (passportNo) put('Document Number', passportNo[1]!, 60);
  else if (dl) put('Document Number', dl, 50);
  return out;
}
