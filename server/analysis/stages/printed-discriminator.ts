/**
 * The document discriminator (AAMVA field 5) on a licence front: after its label (DD, or "5 DD"
 * garbled), else, with the label unread, the one other long number beside the licence number.
 * Read from 6-10 px print with no check digit, so only a line the recogniser read surely vouches
 * for it. Used by printed-fields.ts.
 */
import type { OcrResult } from './ocr.js';
import { findDates } from './printed-dates.js';

/**
 * The discriminator's label at the start of a line: DD, or the AAMVA field number 5 before it
 * (read S too: "SDO 1754…"), with its D read as O or 0 ("DO 6X75…", "5.00 A8117624531"), as small print often is.
 */
// "5 00" needs its separator: "500 MAIN ST" is a street.
export const DD_START = /^(?:[5S]\s*[.:]?\s*)?(?:DD|D[O0]|[O0]D)(?![A-Z])|^5(?:\s*[.:]\s*|\s+)[O0]{2}(?![A-Z0-9])/;

/** A line's recogniser confidence (0-100) that vouches for a discriminator read after its label. */
const DD_SURE = 90;
/** The same for a discriminator taken with its label unread (the unlabelled run below). */
const DD_SURE_UNLABELLED = 95;

/** Letters and digits a small-print reader swaps, folded to one, to tell two readings of a number apart. */
const lookAlike = (v: string): string => v.replace(/[IL]/g, '1').replace(/O/g, '0').replace(/S/g, '5').replace(/B/g, '8').replace(/Z/g, '2');

/**
 * The discriminator, or null. `street` is the street line read (a label wrongly paired with it
 * must not give it), `dl` the licence number read (an unlabelled run must be another number).
 */
export function readDiscriminator(ocr: OcrResult, street: string, dl: string | null): { value: string; confidence: number } | null {
  const lines = ocr.lines.map((l) => l.text.trim());
  const all = lines.join('\n');
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
  const streetRun = street.replace(/\s+/g, '');
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
  if (ddValue) return { value: ddValue, confidence: 50 };
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
  return run && dl ? { value: run, confidence: 30 } : null;
}
