/**
 * A TD3 passport's second MRZ line rebuilt from the printed page (the visual inspection zone,
 * VIZ) when a finger or a blot hides part of it and its checks fail as read (development
 * passport 29: the finger over the nationality and the year of birth, refused
 * `MRZ_CHECK_FAILED`). The page prints the document number and the dates of birth and expiry;
 * a line made of them, with its check digits computed, is taken only when the MRZ's own passes
 * read the date check digits and the composite check digit it needs, nothing the passes agreed on
 * contradicts it, and no other line made of the page's values fits as well: the check digits are
 * read from the MRZ, the values from the page, and a misread on either side breaks the match.
 * The nationality and the sex have no check digit: what the passes read there is kept, and
 * doubted (review) unless the page prints it (mrz-viz.ts).
 */
import { seenAt } from './mrz-align.js';
import { applyDoubts, mrzDoubts } from './mrz-doubt.js';
import { vizLines, vizWords } from './mrz-viz.js';
import { checkDigit, readMrzLines, type MrzResult } from './mrz-parse.js';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;

/** The dates the page prints (`06 NOV 1995`, `06.11.1995`), as the MRZ holds them (YYMMDD). */
export function vizDates(lines: readonly string[]): string[] {
  const out = new Set<string>();
  const put = (d: number, m: number, y: string): void => {
    if (d >= 1 && d <= 31 && m >= 1 && m <= 12) out.add(`${y.slice(-2)}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`);
  };
  for (const line of vizLines(lines)) {
    for (const m of line.matchAll(/(?<![0-9])(\d{1,2}) ?([A-Z]{3})(?:\/[A-Z]{3})? ?(\d{4}|\d{2})(?![0-9])/g)) {
      const month = MONTHS.indexOf(m[2] as (typeof MONTHS)[number]);
      if (month >= 0) put(Number(m[1]), month + 1, m[3]!);
    }
    for (const m of line.matchAll(/(?<![0-9])(\d{2})[./-](\d{2})[./-](\d{4})(?![0-9])/g)) put(Number(m[1]), Number(m[2]), m[3]!);
  }
  return [...out];
}

const cd = (field: string): string => String(checkDigit(field));

/** The TD3 second line of these values, its check digits computed. */
function composeLine(doc: string, nat: string, dob: string, sex: string, exp: string, opt: string, optCheck: string): string {
  const head = `${doc}${cd(doc)}`;
  const birth = `${dob}${cd(dob)}`;
  const expiry = `${exp}${cd(exp)}`;
  return `${head}${nat}${birth}${sex}${expiry}${opt}${optCheck}${cd(head + birth + expiry + opt + optCheck)}`;
}

/** Columns of the TD3 second line whose digit must be read by some pass as composed: the dates' and the composite's check digits. */
const WITNESS_COLUMNS = [19, 27, 43] as const;
/** The nationality and the sex: no check digit covers them, they are chosen apart. */
const UNCHECKED_COLUMNS = new Set([10, 11, 12, 20]);

/**
 * The MRZ with its second line rebuilt from the page's values (see the module comment), or the
 * reading unchanged: a valid one, one that is not TD3, or one no page-built line fits.
 */
export function repairByPage(read: MrzResult, pageLines: readonly string[], today: Date): MrzResult {
  const data = read.data;
  const passes = read.passes;
  if (!data || data.valid || data.format !== 'TD3' || !passes || passes.length === 0) return read;
  const [line1, line2] = data.lines as [string, string];
  const dates = vizDates(pageLines);
  if (dates.length < 2) return read;
  const seconds = passes.map((p) => p.at(-1) ?? '').filter((l) => l.length === 44);
  const docs = new Set([line2.slice(0, 9), ...seconds.map((l) => l.slice(0, 9))]);
  for (const w of vizWords(pageLines)) if (w.length >= 6 && w.length <= 9 && /\d/.test(w)) docs.add(w.padEnd(9, '<'));
  const opts = new Set([line2.slice(28, 43), '<'.repeat(15), `${'<'.repeat(14)}0`]);
  // The checked values first (the composite covers neither the nationality nor the sex): each
  // line scored without those columns, and one set of checked values must fit best.
  const fits: { line: string; support: number }[] = [];
  for (const doc of docs)
    for (const dob of dates)
      for (const exp of dates) {
        if (exp === dob) continue;
        for (const opt of opts) {
          const line = composeLine(doc, line1.slice(2, 5), dob, '<', exp, opt.slice(0, 14), opt[14]!);
          const support = scoreLine(line1, line, passes);
          if (support !== null) fits.push({ line, support });
        }
      }
  if (fits.length === 0) return read;
  const top = Math.max(...fits.map((f) => f.support));
  const best = fits.filter((f) => f.support === top);
  // An optional field of fillers may carry `<` or `0` as its check digit (ICAO 9303, both worth 0):
  // lines differing only there are one reading, taken with the check digit as the line read it.
  const same = (l: string): string => l.slice(0, 42) + (l[42] === '<' ? '0' : l[42]) + l.slice(43);
  if (new Set(best.map((f) => same(f.line))).size > 1) return read;
  const chosen = (best.find((f) => f.line[42] === line2[42]) ?? best[0]!).line;
  const seen = seenAt([line1, chosen], passes)[1]!;
  const natPrinted = (n: string): boolean => vizWords(pageLines).has(n);
  const nat = pickUnchecked(
    [line1.slice(2, 5), ...[line2, ...seconds].map((l) => l.slice(10, 13))].filter((n) => /^[A-Z]{3}$/.test(n)),
    (n) => [...n].filter((c, k) => seen[10 + k]!.includes(c)).length,
    natPrinted,
  );
  const dob = chosen.slice(13, 19);
  // The sex as printed beside the date of birth (ICAO pages print it on that row, `06 NOV 1995 M`).
  const sexPrinted = (x: string): boolean => vizLines(pageLines).some((l) => printsDate(l, dob) && new RegExp(`(^|[^A-Z])${x}([^A-Z]|$)`).test(l));
  const sex = pickUnchecked(['M', 'F', 'X'], (x) => (seen[20]!.includes(x) ? 1 : 0), sexPrinted);
  if (!nat || !sex) return read;
  const lines = [line1, chosen.slice(0, 10) + nat + chosen.slice(13, 20) + sex + chosen.slice(21)];
  const again = readMrzLines(lines, today, seenAt(lines, passes));
  if (!again?.data?.valid) return read;
  // What the passes do not vouch for is doubted as on any MRZ, less what the page prints.
  const doubts = mrzDoubts(again.data.lines, passes, read.lineRead).filter(
    (d) => !(d.field === 'nationality' && natPrinted(nat)) && !(d.field === 'sex' && sexPrinted(sex)),
  );
  return applyDoubts({ ...again, passes, lineRead: read.lineRead, ...(read.zone ? { zone: read.zone } : {}) }, doubts);
}

/**
 * An unchecked field's value: the option the passes read most of, else the one the page prints,
 * else none (a tie the page does not break). Doubted later unless the page vouches for it.
 */
function pickUnchecked(options: readonly string[], readBy: (o: string) => number, printed: (o: string) => boolean): string | null {
  const uniq = [...new Set(options)];
  const top = Math.max(0, ...uniq.map(readBy));
  const read = uniq.filter((o) => readBy(o) === top);
  if (top > 0 && read.length === 1) return read[0]!;
  const onPage = (top > 0 ? read : uniq).filter(printed);
  return onPage.length === 1 ? onPage[0]! : null;
}

/** Whether a page line prints the date (YYMMDD) in one of the forms {@link vizDates} reads. */
function printsDate(line: string, yymmdd: string): boolean {
  return vizDates([line]).includes(yymmdd);
}

/**
 * How many columns of `line` some pass read as it has them, or null when the passes do not
 * witness it: a date's or the composite's check digit no pass read as composed, or a column
 * where two passes or more read one character alike that the line does not have.
 */
function scoreLine(line1: string, line: string, passes: readonly (readonly string[])[]): number | null {
  const seen = seenAt([line1, line], passes)[1]!;
  for (const col of WITNESS_COLUMNS) if (!seen[col]!.includes(line[col]!)) return null;
  let support = 0;
  for (const [col, read] of seen.entries()) {
    if (UNCHECKED_COLUMNS.has(col)) continue;
    if (read.includes(line[col]!)) support++;
    else if (read.length >= 2 && read.every((c) => c === read[0])) return null;
  }
  return support;
}
