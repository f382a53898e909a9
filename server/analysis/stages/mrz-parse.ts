/**
 * Parsing and check-digit correction of MRZ text (kept apart from mrz.ts, which finds the zone
 * and reads it): the lines picked out of OCR text, parsed with `mrz`, and O/0-class confusions
 * repaired where the check digits say so. An MRZ whose checks still fail after correction is
 * reported with `valid: false` and the failing checks.
 */
import { parse as parseMrz, type Details, type ParseResult } from 'mrz';
import { ageOn, type ProcessorField } from './aamva.js';
import type { MrzDoubt } from './mrz-doubt.js';
import { fieldAt, isDateDigit, STATE_CODE_FIELDS } from './mrz-fields.js';
import { clearSilentStrays, clearStrayFiller, padLine } from './mrz-filler.js';

/** One `mrz_data` entry. */
export interface MrzData {
  /** ICAO format (`TD1`, `TD2`, `TD3`, …). */
  readonly format: string;
  /** True when every check digit is right (after any correction). */
  readonly valid: boolean;
  /** The MRZ lines as finally read (after correction). */
  readonly lines: readonly string[];
  /** Parsed fields as `mrz` names them; invalid ones are null. */
  readonly fields: Readonly<Record<string, string | null>>;
  /** Labels of the checks that still fail (empty when valid). */
  readonly failing_checks: readonly string[];
  /** Characters changed by check-digit-guided correction. */
  readonly corrections: readonly { line: number; column: number; from: string; to: string }[];
}

export interface MrzResult {
  readonly found: boolean;
  readonly data?: MrzData;
  readonly fields: Record<string, ProcessorField>;
  /** The zone as each OCR pass read it (best engine first), before any vote or correction. */
  readonly passes?: readonly (readonly string[])[];
  /** The zone as the OCR-B model read it line by line (one of `passes`; mrz-ocr.ts), when it read an MRZ. */
  readonly lineRead?: readonly string[];
  /** Characters of a valid MRZ the passes do not vouch for (mrz-doubt.ts); empty or absent when none. */
  readonly doubts?: readonly MrzDoubt[];
  /** Corners of the located zone on the working page (absent when read from the page's lowest rows). */
  readonly zone?: readonly [MrzPoint, MrzPoint, MrzPoint, MrzPoint];
}

/** A point on the working page (px). */
export interface MrzPoint {
  readonly x: number;
  readonly y: number;
}

/** Characters OCR confuses in MRZs, and what each could really be. */
const CONFUSIONS: Readonly<Record<string, readonly string[]>> = {
  O: ['0', 'D', 'Q'],
  '0': ['O', 'D', 'Q'],
  D: ['0', 'O'],
  Q: ['0', 'O'],
  I: ['1', 'L'],
  '1': ['I', 'L', '7'],
  L: ['1', 'I', '<'],
  '7': ['1'],
  B: ['8'],
  '8': ['B'],
  S: ['5'],
  '5': ['S'],
  Z: ['2'],
  '2': ['Z'],
  G: ['6', 'C'],
  '6': ['G'],
  K: ['<'],
  '<': ['K', 'L', 'C'],
  C: ['<', 'G'],
  A: ['4'],
  '4': ['A'],
  U: ['V'],
  V: ['U'],
};

const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

/** Letters OCR makes of the sex field's M and F (the field allows only M, F, X and `<`). */
export const SEX_LOOKALIKES: Readonly<Record<string, string>> = { H: 'M', N: 'M', W: 'M', R: 'M', E: 'F', P: 'F' };

const MRZ_LENGTHS = [44, 36, 30] as const;

/** Keeps the MRZ alphabet and fixes common OCR noise in one raw line. */
function cleanLine(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/\s+/g, '')
    .replace(/[«‹]/g, '<')
    .replace(/[^A-Z0-9<]/g, '');
}

/** Picks the MRZ lines out of OCR text: the last 2 (TD2/TD3) or 3 (TD1) long lines, normalised to length. */
export function pickMrzLines(text: string): string[] | null {
  const lines = text
    .split('\n')
    .map(cleanLine)
    // Past 50 characters a line is not an MRZ line misread but texture read as text (a
    // guilloche band under a rectified zone gave 140 characters of 8s and 2s).
    .filter((l) => l.length >= 26 && l.length <= 50);
  if (lines.length < 2) return null;
  for (const [count, len] of [
    [2, 44],
    [3, 30],
    [2, 36],
  ] as const) {
    if (lines.length < count) continue;
    const tail = lines.slice(-count);
    if (tail.every((l) => Math.abs(l.length - len) <= 2)) {
      return tail.map((l, i) => (l.length > len ? (len === 44 ? td3Window(l, i) : l.slice(0, len)) : padLine(l, len, i)));
    }
  }
  const longest = Math.max(...lines.map((l) => l.length));
  const len = MRZ_LENGTHS.reduce((a, b) => (Math.abs(b - longest) < Math.abs(a - longest) ? b : a));
  const tail = lines.slice(len === 30 ? -3 : -2);
  return tail.map((l, i) => (l.length > len ? l.slice(0, len) : padLine(l, len, i)));
}

/** ICAO 9303 check digit of a field (weights 7, 3, 1; `<` = 0, A = 10). */
export function checkDigit(field: string): number {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const v = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    sum += v * [7, 3, 1][i % 3]!;
  }
  return sum % 10;
}

/**
 * The 44 characters of an over-long TD3 line that are the MRZ: OCR adds a stray mark before
 * or after a line ("HP<USA…", "…<02<"). The first line starts with its document code `P`; the
 * second is the window whose document number, birth and expiry check digits hold best.
 */
function td3Window(line: string, index: number): string {
  const extra = line.length - 44;
  const windows = Array.from({ length: extra + 1 }, (_, k) => line.slice(k, k + 44));
  if (index === 0) return windows.find((w) => /^P[A-Z<][A-Z<]{3}/.test(w)) ?? windows[0]!;
  const holds = (w: string): number =>
    [
      [0, 9, 9],
      [13, 19, 19],
      [21, 27, 27],
    ].filter(([a, b, c]) => String(checkDigit(w.slice(a, b))) === w[c]).length;
  return windows.reduce((best, w) => (holds(w) > holds(best) ? w : best), windows[0]!);
}

function tryParse(lines: readonly string[]): ParseResult | null {
  try {
    return parseMrz(lines as string[], { autocorrect: true });
  } catch {
    return null;
  }
}

const failingChecks = (r: ParseResult): Details[] => r.details.filter((d) => !d.valid);

/**
 * Check-digit-guided correction: for every failing check, tries single-character swaps from
 * {@link CONFUSIONS} inside the characters that check covers, keeping a swap only when it
 * reduces the number of failing fields. At most `maxSwaps` swaps in total. `seen`, when given,
 * holds per line and column what each OCR pass read there.
 */
export function correctMrz(
  lines: readonly string[],
  maxSwaps = 3,
  seen?: readonly (readonly (readonly string[])[])[],
): { result: ParseResult; lines: string[]; corrections: MrzData['corrections'] } | null {
  let current = [...lines];
  let result = tryParse(current);
  if (!result) return null;
  const corrections: { line: number; column: number; from: string; to: string }[] = [];
  // Apply the library's own type-based autocorrections (letters in numeric fields…) to the lines.
  for (const d of result.details) {
    for (const a of d.autocorrect) {
      const l = current[a.line]!;
      current[a.line] = l.slice(0, a.column) + a.corrected + l.slice(a.column + 1);
      corrections.push({ line: a.line, column: a.column, from: a.original, to: a.corrected });
    }
  }
  // The sex field holds M, F, X or `<` only: a letter there that is none of them is one of them
  // misread (a dim development passport's M read R, another's H). No check digit covers it.
  const sex = result.details.find((d) => d.field === 'sex' && !d.valid)?.ranges[0];
  const sexRead = sex ? current[sex.line]![sex.start]! : '';
  // A letter that is no look-alike of one (a finger over the field read Y and V: development
  // `wide` 14) is unread: taken as `<`, which no pass read, so the passes' vote doubts it
  // (mrz-doubt.ts) and the passport goes to a person with the rest of its MRZ read.
  const sexTaken = SEX_LOOKALIKES[sexRead] ?? (sex && /[A-Z0-9]/.test(sexRead) ? '<' : null);
  if (sex && sexTaken) {
    const l = current[sex.line]!;
    current[sex.line] = l.slice(0, sex.start) + sexTaken + l.slice(sex.start + 1);
    corrections.push({ line: sex.line, column: sex.start, from: sexRead, to: sexTaken });
    result = tryParse(current) ?? result;
  }
  if (!result.valid) {
    const cleared = clearStrayFiller(current);
    const r = cleared.lines.join() !== current.join() ? tryParse(cleared.lines) : null;
    if (r && failingChecks(r).length < failingChecks(result).length) {
      current = cleared.lines;
      result = r;
      corrections.push(...cleared.corrections);
    }
  }
  let swaps = 0;
  type Correction = (typeof corrections)[number];
  while (!result.valid && swaps < maxSwaps) {
    const failing = failingChecks(result);
    const readAt = (line: number, col: number): readonly string[] | undefined => seen?.[line]?.[col];
    // Some pass read another character there, or dropped it (fewer readings than the line's most).
    const contested = (line: number, col: number): boolean => {
      const read = readAt(line, col);
      const most = Math.max(0, ...(seen?.[line]?.map((r) => r.length) ?? []));
      return read !== undefined && most > 1 && (new Set(read).size > 1 || read.length < most);
    };
    // A swap makes a letter of a digit or a filler only where some pass read that letter: a noisy
    // document number passed its check by chance so (dim development passport 4: 0 → D where
    // the passes read 0, 0 and noise). What another pass read there is an alternative too.
    const alternatives = (line: number, col: number): readonly string[] => {
      const read = readAt(line, col);
      const was = current[line]![col]!;
      // A state code holds letters only: a digit there is a letter misread, whatever the passes
      // read (development-variant passport 29: USA read US4 by the vote, refused for its nationality).
      const lettersOnly = STATE_CODE_FIELDS.has(fieldAt(current.length, current[line]!.length, line, col).field);
      const alts = (CONFUSIONS[was] ?? []).filter((alt) => !read || lettersOnly || /[A-Z]/.test(was) || !/[A-Z]/.test(alt) || read.includes(alt));
      // A date digit the passes did not agree on (one misread it, another dropped it) may be any
      // digit: the date's check and the composite's must both come to hold (a development
      // passport's expiry 230326 was read 270326 by three passes of five and dropped by two).
      const free = contested(line, col) && isDateDigit(current.length, current[line]!.length, line, col) ? DIGITS : [];
      return [...new Set([...alts, ...(read ?? []).filter((c) => c !== was), ...free])].filter((c) => c !== was);
    };
    // The positions of each failing check that some swap could repair.
    const byCheck = failing.map((detail) =>
      detail.ranges.flatMap((range) =>
        Array.from({ length: range.end - range.start }, (_, k) => ({ line: range.line, col: range.start + k })).filter(
          (p) => alternatives(p.line, p.col).length > 0,
        ),
      ),
    );
    const swap = (lines: string[], p: { line: number; col: number }, alt: string): string[] => {
      const out = [...lines];
      const l = out[p.line]!;
      out[p.line] = l.slice(0, p.col) + alt + l.slice(p.col + 1);
      return out;
    };
    const supported = (c: Correction): boolean => readAt(c.line, c.column)?.includes(c.to) === true;
    // Several swaps can satisfy a mod-10 check by chance: prefer fewer failing checks, then what
    // a pass read there, then the most likely confusions (each list in CONFUSIONS is ordered by
    // likelihood). Document numbers and dates are mostly digits, so letter→digit is the likelier repair.
    let best: { lines: string[]; result: ParseResult; cs: Correction[]; cost: number } | null = null;
    const cost = (cs: Correction[]): number =>
      cs.reduce(
        (sum, c) =>
          sum + 1 + (supported(c) ? 0 : 1 + Math.max(0, CONFUSIONS[c.from]?.indexOf(c.to) ?? 0)) + (/[0-9<]/.test(c.from) && /[A-Z]/.test(c.to) ? 2 : 0),
        0,
      );
    // A date digit no pass read and no confusion explains is taken only when every check over it holds.
    const guessed = (c: Correction): boolean => !supported(c) && !CONFUSIONS[c.from]?.includes(c.to) && /\d/.test(c.to);
    const holdsOver = (r: ParseResult, c: Correction): boolean =>
      failingChecks(r).every((d) => !d.ranges.some((g) => g.line === c.line && g.start <= c.column && c.column < g.end));
    const consider = (trial: string[], cs: Correction[]): void => {
      const r = tryParse(trial);
      if (!r) return;
      if (cs.some((c) => guessed(c) && !holdsOver(r, c))) return;
      const n = failingChecks(r).length;
      if (n >= failing.length) return;
      const c = cost(cs);
      const bestN = best ? failingChecks(best.result).length : Infinity;
      if (!best || n < bestN || (n === bestN && c < best.cost)) best = { lines: trial, result: r, cs, cost: c };
    };
    const positions = byCheck.flat().filter((p, k, all) => all.findIndex((o) => o.line === p.line && o.col === p.col) === k);
    // Single swaps first, then pairs (two confusions in one field leave its check failing after one).
    for (const p of positions) {
      for (const alt of alternatives(p.line, p.col))
        consider(swap(current, p, alt), [{ line: p.line, column: p.col, from: current[p.line]![p.col]!, to: alt }]);
    }
    // Pairs only inside one failing check, and, when the passes are known, with at most one
    // swap to a character no pass read there: some pair of guesses passes a mod-10 check by
    // chance in almost any field of 9 characters (dim development passport 4's number, read
    // XD0901608, passed as XO0907608 with D → O and 1 → 7 that no pass read; a pass read the 6).
    if (!best && swaps + 2 <= maxSwaps) {
      // Only inside a field's own check digit: not across the composite check's fields (each
      // holds its own check digit) nor in names or codes no check digit guards; pairs over those
      // 30-40 characters were most of the time a noisy page spent (seconds per reading).
      for (const [k, inCheck] of byCheck.entries()) {
        const field = failing[k]!.field ?? '';
        if (!field.endsWith('CheckDigit') || field === 'compositeCheckDigit') continue;
        for (let i = 0; i < inCheck.length; i++) {
          for (let j = i + 1; j < inCheck.length; j++) {
            const p = inCheck[i]!;
            const q = inCheck[j]!;
            for (const a of alternatives(p.line, p.col)) {
              const once = swap(current, p, a);
              for (const b of alternatives(q.line, q.col)) {
                const cs: Correction[] = [
                  { line: p.line, column: p.col, from: current[p.line]![p.col]!, to: a },
                  { line: q.line, column: q.col, from: current[q.line]![q.col]!, to: b },
                ];
                if (seen && !cs.some(supported)) continue;
                consider(swap(once, q, b), cs);
              }
            }
          }
        }
      }
    }
    const chosen = best as { lines: string[]; result: ParseResult; cs: Correction[]; cost: number } | null;
    if (!chosen) break;
    current = chosen.lines;
    result = chosen.result;
    corrections.push(...chosen.cs);
    swaps += chosen.cs.length;
  }
  if (result.valid) {
    const cleared = clearSilentStrays(current);
    const r = cleared.corrections.length > 0 ? tryParse(cleared.lines) : null;
    if (r?.valid) {
      current = cleared.lines;
      result = r;
      corrections.push(...cleared.corrections);
    }
  }
  return { result, lines: current, corrections };
}

function mrzDate(yymmdd: string | null | undefined, kind: 'birth' | 'expiry', today: Date): string | null {
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const nowYY = today.getUTCFullYear() % 100;
  const century = kind === 'birth' ? (yy > nowYY ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  const y = century + yy;
  const m = yymmdd.slice(2, 4);
  const d = yymmdd.slice(4, 6);
  const date = new Date(Date.UTC(y, Number(m) - 1, Number(d)));
  if (date.getUTCMonth() !== Number(m) - 1) return null;
  return `${y}-${m}-${d}`;
}

/** `document_processor` fields from a parsed MRZ (only fields whose checks passed). */
export function mrzToProcessor(result: ParseResult, today: Date): Record<string, ProcessorField> {
  const f = result.fields;
  const out: Record<string, ProcessorField> = {};
  const conf = result.valid ? 95 : 60;
  const put = (k: string, v: string | number | null | undefined, c = conf): void => {
    if (v === null || v === undefined || v === '') return;
    out[k] = { value: v, confidence: c };
  };
  const name = [f.firstName, f.lastName].filter((s) => s).join(' ');
  put('Full Name', name || null);
  put('First Name', f.firstName);
  put('Last Name', f.lastName);
  const dob = mrzDate(f.birthDate, 'birth', today);
  put('Date of Birth', dob);
  if (dob) put('age', ageOn(dob, today));
  put('Date of Expiry', mrzDate(f.expirationDate, 'expiry', today));
  put('Sex', f.sex === 'male' ? 'M' : f.sex === 'female' ? 'F' : f.sex === 'nonspecified' ? 'X' : null);
  put('Document Number', result.documentNumber ?? f.documentNumber);
  put('Issuing State Code', f.issuingState);
  put('countryName', f.nationality);
  put('Document Name', result.format === 'TD3' ? 'Passport' : 'Identity Card');
  return out;
}

/** How many check digits hold on the lines as read, before any correction (0 when they do not parse). */
export function checksHolding(lines: readonly string[]): number {
  return tryParse(lines)?.details.filter((d) => d.field?.endsWith('CheckDigit') && d.valid).length ?? 0;
}

/** Whether `lines` parse as an MRZ whose every field and check holds, as they stand (no correction). */
export function holdsEveryCheck(lines: readonly string[]): boolean {
  return tryParse(lines)?.valid === true;
}

/** Parses and corrects the MRZ lines in OCR text; null when none parse. */
export function readMrz(text: string, today: Date): MrzResult | null {
  const lines = pickMrzLines(text);
  return lines ? readMrzLines(lines, today) : null;
}

/**
 * Parses and corrects MRZ lines already picked out (see {@link pickMrzLines}); null when they do
 * not parse. `seen`: what the OCR passes read at each character (mrz-align.ts `seenAt`), which
 * limits the repairs.
 */
export function readMrzLines(lines: readonly string[], today: Date, seen?: readonly (readonly (readonly string[])[])[]): MrzResult | null {
  // Text that fails every check digit as read is not a misread MRZ but something else read as
  // one (a licence back whose PDF417 did not decode gave such a read): no MRZ, rather than a failed
  // one. Judged before correction, which can always trade a few characters for a passing check.
  const raw = tryParse(lines);
  const checks = raw?.details.filter((d) => d.field?.endsWith('CheckDigit')) ?? [];
  if (checks.length > 0 && checks.every((d) => !d.valid)) return null;
  const corrected = correctMrz(lines, 3, seen);
  if (!corrected) return null;
  const { result } = corrected;
  const data: MrzData = {
    format: result.format,
    valid: result.valid,
    lines: corrected.lines,
    fields: { ...result.fields } as Record<string, string | null>,
    failing_checks: failingChecks(result).map((d) => d.label),
    corrections: corrected.corrections.filter((c) => c.from !== c.to),
  };
  return { found: true, data, fields: mrzToProcessor(result, today) };
}
