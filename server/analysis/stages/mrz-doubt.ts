/**
 * Where an MRZ that passes every check digit may still hold a wrong value (issue 20): the check
 * digits cover neither the names, the sex, the nationality nor the issuing state, and they cannot
 * tell G from 6 or L from 1 (a letter's value is its digit's plus 10). On blurred, dim and small
 * development passports 4 of 8 readings passed every check with a wrong name letter or a wrong
 * document number; a person should look at those rather than the service accept them.
 */
import { states } from 'mrz';
import { alignTo, editDistance, seenAt } from './mrz-align.js';
import { fieldAt, isDateDigit, STATE_CODE_FIELDS } from './mrz-fields.js';
import { holdsEveryCheck, SEX_LOOKALIKES, type MrzResult } from './mrz-parse.js';

/** Why a character of an MRZ that passed its checks is not to be trusted. */
export const MrzDoubtKind = {
  /** No check digit covers the character, and the OCR passes did not agree on it by a majority. */
  PassesDisagree: 'passes_disagree',
  /** A check digit covers the digit but cannot tell it from a look-alike letter (6/G, 1/L), and fewer than 3 passes of 4 read it. */
  CheckBlind: 'check_blind',
  /** A repair made a letter a digit (or the reverse) where every pass read the other kind. */
  RepairChangedKind: 'repair_changed_kind',
  /** A name letter that blur makes of another in OCR-B (an O smeared into a Q), however many passes read it. */
  BlurLookAlike: 'blur_look_alike',
  /** A name letter no pass read as itself, only as the digit it resembles: that digit is also a blurred other letter (R read 2, taken Z). */
  OnlyReadAsDigit: 'only_read_as_digit',
  /** A repair put a letter no pass read there, in a field that allows letters and digits: a check digit holds for one guess in ten. */
  RepairUnread: 'repair_unread',
  /** A name letter the line-by-line reading, sound on that line, read as another letter. */
  LineReadDisagrees: 'line_read_disagrees',
  /** A name letter whose glyph is more like another letter: its print elsewhere in the zone, read so by some pass (mrz-glyph.ts), or its OCR-B glyph (mrz-font-witness.ts). */
  GlyphUnlike: 'glyph_unlike',
  /** A filler in a date that no pass read there: a filler weighs 0 in the check, and the vote or a repair put it where a finger or blur hid the digits. */
  FillerUnread: 'filler_unread',
  /**
   * A date digit no pass read, where the passes' own digit there and another digit of the date
   * changed instead would hold every check as well: the date's check digit and the composite do
   * not say which digit was misread (a change of 5 at any place of a date holds both).
   */
  DateDigitGuessed: 'date_digit_guessed',
  /**
   * Two or more characters of the document number each read by one pass alone, another pass
   * reading something else there: its check digit (the composite adds nothing to it, having the
   * same weights there) then holds for one such reading in ten.
   */
  NumberReadOnce: 'number_read_once',
} as const;
export type MrzDoubtKind = (typeof MrzDoubtKind)[keyof typeof MrzDoubtKind];

/** One doubted character of the MRZ as finally read. */
export interface MrzDoubt {
  readonly kind: MrzDoubtKind;
  readonly line: number;
  readonly column: number;
  /** The MRZ field it belongs to (`names`, `sex`, `nationality`, `issuing_state`, `document_code`, `document_number`, `optional_data`). */
  readonly field: string;
  /** The character taken. */
  readonly chosen: string;
  /** What the passes read there, in pass order (aligned; a pass that dropped it is left out). */
  readonly read: readonly string[];
}

/**
 * Name letters blur makes of another letter in OCR-B, with that letter: the Q is the O with a
 * short tail, and a motion-blurred O grows one. No check digit covers names, so every pass can
 * read the Q alike (development passport 11: OLIVIA read QLIVIA by all three passes, accepted).
 * Such a letter is doubted until the printed page vouches for the token (mrz-viz.ts).
 */
export const NAME_LOOKALIKES: Readonly<Record<string, string>> = { Q: 'O' };

type Kind = 'digit' | 'letter' | 'filler';
const kindOf = (c: string): Kind => (c === '<' ? 'filler' : /\d/.test(c) ? 'digit' : 'letter');

/**
 * Digits a check digit cannot tell from a look-alike letter (G = 16 and L = 21 weigh as 6 and 1).
 * Only the digit is doubted: OCR reads a blurred G as 6 (the legacy engine does so even on sharp
 * pages), hardly a 6 as G, so a G most passes read is trusted.
 */
const CHECK_BLIND: Readonly<Record<string, string>> = { '6': 'G', '1': 'L' };

/**
 * Digits a field of letters cannot hold, as the letter each is a misreading of: a pass that read
 * 0 in a name read an O, and counts for it. A digit with no look-alike letter says nothing there.
 */
const LETTER_OF_DIGIT: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '2': 'Z', '4': 'A', '5': 'S', '6': 'G', '8': 'B' };

/**
 * What a pass's character says in a field no check digit covers: the character itself, the
 * value it is a look-alike of where the field cannot hold it, or nothing (null). A dim page's
 * M read R, 1 and 0 by three passes and M by two is M (dim development passport 5), not a
 * disagreement; a digit in a name counts for the letter it resembles, not against the name.
 */
function asPossible(field: string, c: string, blurTail = ''): string | null {
  if (field === 'sex') return 'MFX<'.includes(c) ? c : (SEX_LOOKALIKES[c] ?? null);
  if (field === 'names' && NAME_LOOKALIKES[c] === blurTail) return null;
  return /\d/.test(c) ? (LETTER_OF_DIGIT[c] ?? null) : c;
}

/**
 * Name lines whose letters the passes read alike but for Qs read where an O is taken. There a Q
 * is the tail blur grows on an O (NAME_LOOKALIKES), no vote for another letter: dev-variant
 * passport 4's O'CONNOR, read O, Q, Q, O and every other letter alike, went to review exact. On
 * a line where a pass read any other letter otherwise the Q still counts: `wide` 11's WILLIAMS,
 * taken WILLIARS (the one pass that read M outvoted), was sent to review by its OLIVIA's O read
 * Q, O, Q, O alone. A real Q taken as O is still judged against OCR-B's glyphs (mrz-font-witness.ts).
 */
function onlyBlurTails(lines: readonly string[], seen: readonly (readonly (readonly string[])[])[]): boolean[] {
  return lines.map((line, li) =>
    [...line].every((chosen, col) => {
      if (fieldAt(lines.length, line.length, li, col).field !== 'names') return true;
      return seen[li]![col]!.every((c) => {
        const v = asPossible('names', c);
        return v === null || v === chosen || (c === 'Q' && chosen === 'O');
      });
    }),
  );
}

/**
 * The characters of `lines` (an MRZ that passed its checks) that the OCR passes do not vouch
 * for. Each pass's reading is aligned to the lines (a pass that dropped a character is not
 * shifted against them). Where no check digit covers a character, more than half of the passes
 * that read it must have read the character taken; a pass that is noise there breaks that
 * majority too, and a name read by one pass among noise is not vouched for. In a field that
 * allows letters and digits, a character of the other kind than every pass read is doubted (a
 * repair made it), and so is a 6 or 1 that fewer than 3 passes of 4 read (the check digit
 * would hold for G or L as well).
 */
export function mrzDoubts(lines: readonly string[], passes: readonly (readonly string[])[], lineRead?: readonly string[]): MrzDoubt[] {
  const seen = seenAt(lines, passes);
  const blurTails = onlyBlurTails(lines, seen);
  const byLine = lineRead ? soundLineRead(lines, lineRead) : null;
  // A 6 or 1 is judged by the whole-zone passes, as the rule was set: the line-by-line pass is
  // the same model reading the same glyph, and a dim G it reads 6 too (dim development passport
  // 0: 6, 0 and 6 by those passes, a third 6 from the line pass would have vouched for it).
  const zonePasses = lineRead ? withoutOnce(passes, lineRead) : passes;
  const zoneSeen = lineRead ? seenAt(lines, zonePasses) : seen;
  const soundSeen = soundSeenAt(lines, zonePasses);
  const doubts: MrzDoubt[] = [];
  lines.forEach((line, li) => {
    [...line].forEach((chosen, col) => {
      const read = seen[li]![col]!;
      const { field, guard } = fieldAt(lines.length, line.length, li, col);
      if (read.length === 0 && !(chosen === '<' && isDate(field))) return;
      const add = (kind: MrzDoubtKind): void => void doubts.push({ kind, line: li, column: col, field, chosen, read });
      // Line 1 after the names' first `<<<` is filler whatever the passes read there (mrz-filler.ts).
      if (lines.length === 2 && li === 0 && chosen === '<' && col > line.indexOf('<<<', 5) && line.indexOf('<<<', 5) >= 5) return;
      if (guard === 'none') {
        const votes = read.map((c) => asPossible(field, c, blurTails[li] ? chosen : '')).filter((c): c is string => c !== null);
        // And at least two passes: one sound pass among noise vouches for nothing (blurred passport 2).
        const vouched = votes.filter((c) => c === chosen).length;
        if (vouched * 2 <= votes.length || (vouched < 2 && passes.length > 1)) {
          if (!codeListVouches(lines, li, col, field, chosen, votes)) add(MrzDoubtKind.PassesDisagree);
        } else if (field === 'names' && NAME_LOOKALIKES[chosen]) add(MrzDoubtKind.BlurLookAlike);
        // A digit counts for its look-alike letter, but no pass reading the letter itself leaves
        // it a guess: a blurred R reads 2 as well as a Z does (development `hard` passport 9,
        // INGRID read ING2ID, INS2ID and INS2IIZ, taken INSZID with nothing raised).
        else if (field === 'names' && /[A-Z]/.test(chosen) && !read.includes(chosen)) add(MrzDoubtKind.OnlyReadAsDigit);
        // The whole-zone passes share their scale and can share a misread (a small upload's M
        // read R by all three); the line read alone at the model's best height is the witness
        // they do not outvote on a name letter.
        // A Q it read for an O is its own blur tail (see NAME_LOOKALIKES), no witness against the O.
        else if (field === 'names' && lineDisagrees(byLine?.[li]?.[col] ?? null, chosen)) add(MrzDoubtKind.LineReadDisagrees);
      } else if (guard === 'alphanumeric') {
        const kinds = new Set(read.map(kindOf));
        if (kinds.size === 1 && !kinds.has(kindOf(chosen)) && kindOf(chosen) !== 'filler') add(MrzDoubtKind.RepairChangedKind);
        // Three passes of four: one pass's slip is common on a dim page (a 1 read 5, E or Q), while the
        // 6 a dim development passport's G became was read by two passes of three.
        // A pass that read the line as noise does not break the agreement of those that read it
        // (blurred development passport 13: its 6 read 6 by four passes that read the line exactly,
        // 4 by one four edits off it, 5 by one that read noise).
        else if (CHECK_BLIND[chosen] && blindAgree(zoneSeen[li]![col]!, chosen) && !soundVouches(soundSeen[li]![col]!, zoneSeen[li]![col]!, chosen))
          add(MrzDoubtKind.CheckBlind);
        // Two passes read QE and GE in a filler run of the optional data, repaired to CE, whose
        // check digit came out 0 as the empty field's does (dim development passport 7).
        else if (kindOf(chosen) === 'letter' && !read.includes(chosen)) add(MrzDoubtKind.RepairUnread);
      } else if (isDateDigit(lines.length, line.length, li, col) && /\d/.test(chosen) && !read.includes(chosen)) {
        if (anotherDateDigit(lines, li, col, read)) add(MrzDoubtKind.DateDigitGuessed);
      } else if (isDate(field) && chosen === '<' && !read.includes('<')) {
        // Development passport 20, a finger over its date of birth: the passes read 7107137,
        // 71C74J1, 7107487; their vote with the deconvolved zone's passes (mrz.ts) made 7107<<1,
        // whose check holds (an unknown day is written << and weighs 0), accepted with nothing raised.
        add(MrzDoubtKind.FillerUnread);
      }
    });
  });
  return [...doubts, ...numberReadOnce(lines, seen, doubts)];
}

/**
 * The document number's characters each read by exactly one pass while another pass read
 * something else there, when there are two or more of them and no other rule doubted them
 * (see {@link MrzDoubtKind.NumberReadOnce}). `hard` development passport 15: 007854587 taken as
 * Q07894387, the one pass that read its line 2 whole; the others read 0 for the Q and 5 for the
 * 3, and its check digit held with three characters wrong. One such character is the repair
 * doing its work (a pass read what the check needs), and is left alone.
 */
function numberReadOnce(lines: readonly string[], seen: ReturnType<typeof seenAt>, earlier: readonly MrzDoubt[]): MrzDoubt[] {
  const found: MrzDoubt[] = [];
  lines.forEach((line, li) =>
    [...line].forEach((chosen, col) => {
      const field = fieldAt(lines.length, line.length, li, col).field;
      const read = seen[li]![col]!;
      if (field !== 'document_number' || chosen === '<' || earlier.some((d) => d.line === li && d.column === col)) return;
      if (read.filter((c) => c === chosen).length === 1 && read.some((c) => c !== chosen))
        found.push({ kind: MrzDoubtKind.NumberReadOnce, line: li, column: col, field, chosen, read });
    }),
  );
  return found.length >= 2 ? found : [];
}

/**
 * Whether the closed list of state codes vouches for a letter the passes disagreed on: the code
 * with the letter taken is a state, at least one pass read that letter, and every other letter a
 * pass read there makes a code that is no state. Development passport 29: USA's A read A once and
 * M once ("USM" is no state) was doubted and sent an exact reading to review. A misread that
 * makes another state (USA read UGA) still leaves the doubt.
 */
function codeListVouches(lines: readonly string[], li: number, col: number, field: string, chosen: string, votes: readonly string[]): boolean {
  if (!STATE_CODE_FIELDS.has(field) || !votes.includes(chosen)) return false;
  const line = lines[li]!;
  const inField = (c: number): boolean => c >= 0 && c < line.length && fieldAt(lines.length, line.length, li, c).field === field;
  let from = col;
  while (inField(from - 1)) from--;
  let to = col;
  while (inField(to + 1)) to++;
  const codeWith = (c: string): string => (line.slice(from, col) + c + line.slice(col + 1, to + 1)).replace(/<+$/, '');
  const isState = (code: string): boolean => Object.hasOwn(states, code);
  return isState(codeWith(chosen)) && votes.every((v) => v === chosen || !isState(codeWith(v)));
}

const isDate = (field: string): boolean => field === 'birth_date' || field === 'expiry_date';

/**
 * Whether the date digit at `line`, `col` (one no pass read) has a rival reading: that place as
 * some pass read it, and one other digit of the same date changed, with every check holding and
 * the date a date. A date's two checks fix the value a single misread digit must take, not its
 * place: their weights at several places of a date are in the same ratio (a change of 5 holds
 * both anywhere). Dim development passport 14: expiry 230326, read 2<0326, 280326 and 210326;
 * the repair made the 2 every pass read a 7 (780326, expired in 1978) where 280326's 8 made a 3
 * holds every check as well.
 */
function anotherDateDigit(lines: readonly string[], li: number, col: number, read: readonly string[]): boolean {
  const line = lines[li]!;
  const { field } = fieldAt(lines.length, line.length, li, col);
  const places = Array.from({ length: line.length }, (_, q) => q).filter(
    (q) => q !== col && isDateDigit(lines.length, line.length, li, q) && fieldAt(lines.length, line.length, li, q).field === field,
  );
  const put = (s: string, at: number, c: string): string => s.slice(0, at) + c + s.slice(at + 1);
  for (const x of new Set(read.filter((c) => /\d/.test(c)))) {
    const asRead = put(line, col, x);
    for (const q of places)
      for (const y of '0123456789') {
        if (y === line[q]) continue;
        const rival = lines.map((l, k) => (k === li ? put(asRead, q, y) : l));
        if (holdsEveryCheck(rival)) return true;
      }
  }
  return false;
}

/** Fewer than 3 passes of 4 read the digit a check cannot tell from its look-alike letter. */
function blindAgree(read: readonly string[], chosen: string): boolean {
  return read.filter((c) => c === chosen).length * 4 < read.length * 3;
}

/**
 * The sound passes vouch for a 6 or 1 (see {@link soundSeenAt}): at least three and 3 of 4 of
 * them read it, and no pass, sound or not, read its look-alike letter there (that is the misread
 * the check cannot see). Dim development passport 0's G, read 6, 0 and 6 by three sound passes,
 * stays doubted; so does `hard` 23's document number, read 9713371560 for 7713171560 (a 3 most
 * passes read and a 9 the repair took from one offset each other in its check), whose 1s only
 * two passes four edits off read soundly: the 1 was no misread, but its doubt is the one the
 * wrong number has.
 */
function soundVouches(sound: readonly string[], zone: readonly string[], chosen: string): boolean {
  return sound.filter((c) => c === chosen).length >= 3 && !blindAgree(sound, chosen) && !zone.includes(CHECK_BLIND[chosen]!);
}

/**
 * What the passes that read each line soundly (at most {@link SOUND_LINE_EDITS} edits from the
 * line taken) saw at each of its characters. A pass that read noise there is left out: it is
 * aligned only when within a third of the line (mrz-align.ts), and blur makes such a pass misread
 * digits at random.
 */
function soundSeenAt(lines: readonly string[], passes: readonly (readonly string[])[]): string[][][] {
  return lines.map(
    (line) =>
      seenAt(
        [line],
        passes.filter((p) => p.some((l) => editDistance(line, l) <= SOUND_LINE_EDITS)),
      )[0]!,
  );
}

/** The line-by-line reading read another letter than the one taken, and not the Q blur makes of an O. */
function lineDisagrees(byLine: string | null, chosen: string): boolean {
  return byLine !== null && /[A-Z]/.test(byLine) && byLine !== chosen && NAME_LOOKALIKES[byLine] !== chosen;
}

/** `passes` without the first reading equal to `one`. */
function withoutOnce(passes: readonly (readonly string[])[], one: readonly string[]): (readonly string[])[] {
  const k = passes.findIndex((p) => p.join('\n') === one.join('\n'));
  return k < 0 ? [...passes] : passes.filter((_, j) => j !== k);
}

/**
 * Most characters the line-by-line reading of a line may differ from the line taken and still
 * witness its letters: past that it read another line, noise, or shifted text.
 */
const SOUND_LINE_EDITS = 4;

/** What the line-by-line reading read at each character of `lines` (null where it dropped it, or where its line is not sound). */
function soundLineRead(lines: readonly string[], lineRead: readonly string[]): (string | null)[][] {
  return lines.map((line) => {
    const mate = lineRead.reduce<string | null>((best, l) => (best === null || editDistance(line, l) < editDistance(line, best) ? l : best), null);
    return mate !== null && editDistance(line, mate) <= SOUND_LINE_EDITS ? alignTo(line, mate) : [...line].map(() => null);
  });
}

/** `document_processor` fields each doubted MRZ field feeds. */
const DOUBTED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  names: ['Full Name', 'First Name', 'Last Name'],
  sex: ['Sex'],
  nationality: ['countryName'],
  issuing_state: ['Issuing State Code'],
  document_number: ['Document Number'],
  birth_date: ['Date of Birth'],
  expiry_date: ['Date of Expiry'],
};

/** Confidence of a field a doubted MRZ character feeds (that of an MRZ whose checks fail, mrz-parse.ts). */
const DOUBTED_CONFIDENCE = 60;

/**
 * A valid MRZ with its doubts: the fields they feed drop to the confidence of an MRZ that failed
 * its checks, and the pipeline sends the document to review (documentDecision).
 */
export function applyDoubts(read: MrzResult, doubts: readonly MrzDoubt[]): MrzResult {
  if (doubts.length === 0) return read;
  const fields = { ...read.fields };
  for (const d of doubts) for (const k of DOUBTED_FIELDS[d.field] ?? []) if (fields[k]) fields[k] = { ...fields[k], confidence: DOUBTED_CONFIDENCE };
  return { ...read, fields, doubts };
}
