/**
 * Dates as a licence front prints them (MM/DD/YYYY, DD MMM YYYY, YYYY-MM-DD), found in OCR
 * lines with the misreads small print gives them: a label glued on, a century digit read as its
 * look-alike, slashes read as digits or lost. Used by printed-fields.ts and dlp.ts.
 */

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
