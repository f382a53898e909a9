/**
 * A licence front's address and holder's names by their place: the AAMVA card design prints the
 * family name, the given names, the street line and the city line one under the other. The
 * city line ("SEATTLE, WA 98142") is the surest anchor; each part is read on its own, so one
 * line the OCR garbled (the street's number, a digit of the postal code) costs that line's
 * fields, not the whole address and the names above it.
 */
import { JURISDICTIONS } from '../jurisdictions.js';
import type { OcrLine } from './ocr.js';

const STREET = /^\d{1,6}\s*[A-Z][A-Z0-9 .'#-]{3,}$|^\d{1,6}\s+[A-Z0-9][A-Z0-9 .'#-]{3,}$/;
// OCR reads the comma after the city as a full stop as often as not ("SEATTLE. WA 98142").
// …and a full stop after the state ("CHICAGO, IL. 60692").
// PaddleOCR drops spaces as often ("SACRAMENTO.CA95835", "BOSTON,MA02124").
const CITY_LINE = /^([A-Z][A-Z .'-]*[A-Z])[,.]?\s*([A-Z]{2})[,.]?\s*(\d{5}(?:-\d{4})?)$/;

/** Labels a licence prints before a name (AAMVA field numbers 1 and 2 included). */
const NAME_LABEL = /^(?:LN|FN|LAST|FIRST|NAME|[12])$/;

/**
 * Strips a leading label token from a value line: an AAMVA field number, a known label, or
 * the OCR's garbled form of one (a short token holding anything but capitals: "w", "»", "4a").
 */
function stripLabel(raw: string): string {
  // Debris glued before a name ("«IVANOV": a field number read as a mark) is no part of it: a name starts with a letter.
  // The classic layout's LN / FN read glued to the name ("LNTHOMAS"): no name starts with either pair.
  const text = raw.replace(/^[^A-Za-z0-9\s]+(?=[A-Z])/, '').replace(/^[LF]N(?=[A-Z]{2})/, '');
  // A name label paired with its value by geometry ("GIVEN NAMES AALIYAH LEE").
  const named = /^(?:\d{1,2}[a-z]?\s+)?(?:FAMILY NAME|GIVEN NAMES?|LAST NAME|FIRST NAME)[:.]?\s+(?=[A-Z])/.exec(text);
  if (named) return text.slice(named[0].length);
  const [head, ...rest] = text.split(' ');
  if (!head || rest.length === 0) return text;
  if (NAME_LABEL.test(head) || (head.length <= 3 && /[^A-Z]/.test(head))) return rest.join(' ').trim();
  return text;
}

/** Words of a card's header, never a holder's name. */
const HEADER_WORD = /\b(?:DRIVER|DRIVERS|LICEN[CS]E|IDENTIFICATION|CARD|USA|STATE|PERMIT|COMMERCIAL|REAL)\b/;
/** A label's word in a line: a label row the OCR half read ("EN NAMES" for "2 GIVEN NAMES"), not a name. */
const LABEL_WORD = /\b(?:NAMES?|FAMILY|GIVEN|ADDRESS)\b/;
/** A whole line that is only labels ("LAST NAME", "DOB EXP ISS"): printed above values, not a value. */
const LABEL_LINE = /^(?:(?:\d{1,2}[a-z]?|LN|FN|LAST|FIRST|FAMILY|GIVEN|NAMES?|ADDRESS|DOB|EXP|ISS|SEX|HGT|EYES|CLASS|RSTR|END|DD)\s*)+$/;

/**
 * The holder's names by their place when no label names them and the line order does not give
 * them (a row of dates printed between the names and the address, an unread label row between
 * them): an AAMVA front prints the family name then the given names, in capitals and in print
 * at least as large as the address, above the street line. Going up from the street, lines
 * holding a digit (dates, numbers) or only labels are passed over, and so is smaller print (a
 * label the OCR garbled into capitals, "ONOO RES"); the first two lines left that are only
 * capital words are the given names (lower) and the family name (upper). A header line (the
 * state, DRIVER LICENSE) ends the search.
 */
function namesAbove(lines: readonly OcrLine[], street: number): { family: string; given: string; familyLine: number; givenLine: number } | null {
  const streetH = lines[street]?.height;
  const found: { text: string; i: number }[] = [];
  for (let i = street - 1; i >= 0 && found.length < 2; i--) {
    const text = stripLabel(lines[i]!.text.trim());
    const h = lines[i]!.height;
    if (HEADER_WORD.test(text) || stateNamed(text)) break;
    if (/\d/.test(text) || LABEL_LINE.test(text) || LABEL_WORD.test(text)) continue;
    if (streetH !== undefined && h !== undefined && h < 0.8 * streetH) continue;
    if (!/^[A-Z][A-Z'-]*(?: [A-Z][A-Z'-]*)*$/.test(text) || text.replace(/[^A-Z]/g, '').length < 2) return null;
    found.push({ text, i });
  }
  if (found.length < 2) return null;
  const [given, family] = found as [{ text: string; i: number }, { text: string; i: number }];
  return { family: family.text, given: given.text, familyLine: family.i, givenLine: given.i };
}

/** Whether a line names a jurisdiction ("CALIFORNIA", "NEW YORK"): a header line. */
function stateNamed(text: string): boolean {
  return Object.values(JURISDICTIONS).some((name) => new RegExp(`(?:^|[^A-Z])${name.toUpperCase()}(?:$|[^A-Z])`).test(text));
}

/** Drops a field-number token before a street number ("8 9100 E SAGUARO BLVD", "g¢ 17 BEACON HILL RD"). */
function stripStreetLabel(text: string): string {
  const m = /^(\S{1,2})\s+(\d+\s.*)$/.exec(text);
  return m ? m[2]! : text;
}
/**
 * A city line whose postal code lost a digit ("SEATTLE.WA9142"): its city and state are still
 * read, its postal code is not. Only a jurisdiction's code with a separator or nothing before
 * it, at the end of a line of capitals (a label row such as "RSTR NONE END 1234" has no such
 * comma or full stop).
 */
const CITY_LINE_SHORT = /^([A-Z][A-Z .'-]*[A-Z])[,.]\s*([A-Z]{2})[,.]?\s*\d{4}$/;

/**
 * The last word of a street line without a city line under it: a USPS street suffix (Publication
 * 28's common ones, with their spelled-out forms). A line of a number and words ("9 CLASS C")
 * is no street without one.
 */
const STREET_SUFFIX = new RegExp(
  `\\s(?:${[
    'ST|STREET|AVE|AVENUE|AV|RD|ROAD|DR|DRIVE|LN|LANE|BLVD|BOULEVARD|CT|COURT|PL|PLACE|TER|TERRACE|WAY|CIR|CIRCLE',
    'PKWY|PARKWAY|HWY|HIGHWAY|TRL|TRAIL|RUN|SQ|SQUARE|LOOP|PIKE|ALY|ALLEY|XING|PATH|ROW|WALK',
  ].join('|')})$`,
);

const NAME_LIKE = /^[A-Z][A-Z'-]*(?: [A-Z][A-Z'-]*)*$/;

export interface AddressReading {
  readonly street?: { readonly value: string; readonly line: number };
  /** The postal code is absent when the city line's lost a digit. */
  readonly city?: { readonly city: string; readonly state: string; readonly zip?: string; readonly line: number };
  readonly names?: { readonly family: string; readonly given: string; readonly familyLine: number; readonly givenLine: number };
}

/**
 * A spelled-out or three-letter street suffix run on to the name before it ("MAPLEAVE",
 * "OCEANDRIVE": PaddleOCR drops spaces). At least three letters must stay before it, and
 * suffixes that end common words are left out (WAY: BROADWAY; ST, RD, DR: FOREST, ...).
 */
const GLUED_SUFFIX = /(?<=\s[A-Z]{3,})(AVE|AVENUE|STREET|ROAD|DRIVE|LANE|BLVD|BOULEVARD|COURT|PLACE|TERRACE|PKWY|PARKWAY|HWY|HIGHWAY)$/;

/** A street line with its field number cut off, its number parted from a glued word ("6021MAPLEAVE") and its suffix from the name. */
const streetOf = (line: string | undefined): string =>
  line === undefined
    ? ''
    : stripStreetLabel(line)
        .replace(/^(\d+)(?=[A-Z])/, '$1 ')
        .replace(GLUED_SUFFIX, ' $1');

/** The city line: a whole one first, else one whose postal code lost a digit. */
function cityLine(lines: readonly string[]): AddressReading['city'] | null {
  const whole = lines.findIndex((l) => CITY_LINE.test(l));
  if (whole >= 0) {
    const [, city, state, zip] = CITY_LINE.exec(lines[whole]!)!;
    return JURISDICTIONS[state!] ? { city: city!.trim(), state: state!, zip: zip!, line: whole } : null;
  }
  const short = lines.findIndex((l) => {
    const m = CITY_LINE_SHORT.exec(l);
    return m !== null && JURISDICTIONS[m[2]!] !== undefined;
  });
  if (short < 0) return null;
  const [, city, state] = CITY_LINE_SHORT.exec(lines[short]!)!;
  return { city: city!.trim(), state: state!, line: short };
}

/**
 * The address and the names above it. The street is the line above the city line when it reads
 * as one; with no city line read, a street line ending in a street suffix. The names are the two
 * lines above the street line, or found by print size and place (`namesAbove`); when the street
 * line is unreadable, they are looked for above its place, unless the line there reads as a name
 * (then the street line was not read at all, and the lines above are not where names would be).
 */
export function readAddress(ocrLines: readonly OcrLine[]): AddressReading {
  const lines = ocrLines.map((l) => l.text.trim());
  const anyCity = lines.findIndex((l) => CITY_LINE.test(l));
  const city = cityLine(lines);
  let streetIdx = -1;
  if (anyCity >= 0) {
    // As before: the street and names hang on the first city line, its state a jurisdiction or not.
    if (anyCity >= 1 && STREET.test(streetOf(lines[anyCity - 1]))) streetIdx = anyCity - 1;
  } else if (city) {
    if (city.line >= 1 && STREET.test(streetOf(lines[city.line - 1]))) streetIdx = city.line - 1;
  } else {
    streetIdx = lines.findIndex((l) => STREET.test(streetOf(l)) && STREET_SUFFIX.test(streetOf(l)));
  }
  const street = streetIdx >= 0 && (city || anyCity < 0) ? { value: streetOf(lines[streetIdx]), line: streetIdx } : undefined;
  const out: { -readonly [K in keyof AddressReading]: AddressReading[K] } = {};
  if (street) out.street = street;
  if (city) out.city = city;
  const names =
    streetIdx >= 0
      ? namesOver(lines, ocrLines, streetIdx)
      : city && city.line >= 1 && !NAME_LIKE.test(stripLabel(lines[city.line - 1]!))
        ? namesAbove(ocrLines, city.line - 1)
        : null;
  if (names) out.names = names;
  return out;
}

/** The names over the street line at `streetIdx`: the two lines right above it, else by print size and place. */
function namesOver(lines: readonly string[], ocrLines: readonly OcrLine[], streetIdx: number): AddressReading['names'] | null {
  if (streetIdx >= 2) {
    const family = stripLabel(lines[streetIdx - 2]!);
    const given = stripLabel(lines[streetIdx - 1]!);
    if (/^[A-Z][A-Z' -]+$/.test(family) && /^[A-Z][A-Z' -]+$/.test(given) && !LABEL_WORD.test(family) && !LABEL_WORD.test(given))
      return { family, given, familyLine: streetIdx - 2, givenLine: streetIdx - 1 };
  }
  return namesAbove(ocrLines, streetIdx);
}
