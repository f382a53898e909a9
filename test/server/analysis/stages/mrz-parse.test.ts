/**
 * The check-digit repair of a date digit the OCR passes did not agree on: the readings are the
 * five passes of development passport 14 (expiry 230326), where three read the 3 as 7 and two
 * dropped it; before, no confusion led from 7 to 3 and the passport was refused.
 */
import { describe, expect, it } from 'vitest';
import { seenAt } from '../../../../server/analysis/stages/mrz-align.js';
import { mrzDoubts } from '../../../../server/analysis/stages/mrz-doubt.js';
import { readMrzLines } from '../../../../server/analysis/stages/mrz-parse.js';

const today = new Date('2026-11-28T00:00:00Z');
const NAMES = 'P<USAMARTIN<<VIKTOR<JAMES<<<<<<<<<<<<<<<<<<<';
const PASSES = [
  [NAMES, '9431553110USA5603266M203266<<<<<<<<<<<<<<<06'],
  [NAMES, '9431553110USA5603266M2703266<<<<<<<<<<<<<<06'],
  [NAMES, '9431553110USA5603266M203266<<<<<<<<<<<<<<0<5'],
  [NAMES, '9431553110USA5603266M2703266<<<<<<<<<<<<<<06'],
  [NAMES, '9431553110USA5603266M2703266<<<<<<<<<<<<<<06'],
];

describe('readMrzLines: a contested date digit', () => {
  it('takes the one digit that makes both the date check and the composite hold', () => {
    const lines = PASSES[1]!;
    const read = readMrzLines(lines, today, seenAt(lines, PASSES));
    expect(read?.data?.valid).toBe(true);
    expect(read?.data?.lines[1]).toBe('9431553110USA5603266M2303266<<<<<<<<<<<<<<06');
    expect(read?.fields['Date of Expiry']?.value).toBe('2023-03-26');
  });

  it('guesses no digit where every pass read the same one', () => {
    // All five passes read 7: nothing says the 7 is wrong but the checks, so no digit is guessed there.
    const agreed = PASSES.map(() => PASSES[1]!);
    const read = readMrzLines(PASSES[1]!, today, seenAt(PASSES[1]!, agreed));
    expect(read?.data?.valid).toBe(false);
  });

  it('guesses no digit that leaves the composite failing', () => {
    // The composite check digit read 5 instead of 6: the expiry's own check alone would take the
    // guess, the composite then fails, so the guess is not made.
    const lines = [NAMES, '9431553110USA5603266M2703266<<<<<<<<<<<<<<05'];
    const passes = PASSES.map((p) => [p[0]!, p[1]!.slice(0, -1) + '5']);
    const read = readMrzLines(lines, today, seenAt(lines, passes));
    expect(read?.data?.lines[1]?.slice(21, 27)).toBe('270326');
  });
});

// Development-variant passport 29 as drawn (nationality USA): every pass read a 4 or dropped the
// A, so the vote read US4, and the passport was refused for its nationality.
const DV_29 = [
  ['P<USAVAN<DYKE<<ELIJAH<PIOTR<<<<<<<<<<<<<<<<<', 'A378616818US40511062M2411060<<<<<<<<<<<<<<06'],
  ['P<USAVAN<DYKE<<ELIJAN<P10TR<<<<<<<<<<<<<<<<<', 'A378616818US11062M2411060<<<<<<<<<<<<<<<<<06'],
  ['P<USAVAN<DYKE<<ELIJAH<PIOTR<<<<<<<<<<<<<<<<<', 'E<4V1062M2411060<<<<<<<<<<<<<<<<<<<<<<<<<<06'],
];

describe('readMrzLines: a digit in a state code', () => {
  it('repairs a digit in the nationality to the letter it resembles, though no pass read that letter', () => {
    const lines = ['P<USAVAN<DYKE<<ELIJAH<PIOTR<<<<<<<<<<<<<<<<<', 'A378616818US49511062M2411060<<<<<<<<<<<<<<06'];
    const read = readMrzLines(lines, today, seenAt(lines, DV_29));
    expect(read?.data?.valid).toBe(true);
    expect(read?.data?.lines[1]).toBe('A378616818USA9511062M2411060<<<<<<<<<<<<<<06');
  });

  it('still repairs a digit into a letter in a document number only where a pass read that letter', () => {
    // The same reading with the A read right and the number's 6 read G by no pass: its check fails
    // as read, and no letter no pass read is put in to make it hold.
    const lines = ['P<USAVAN<DYKE<<ELIJAH<PIOTR<<<<<<<<<<<<<<<<<', 'A378416818USA9511062M2411060<<<<<<<<<<<<<<06'];
    const read = readMrzLines(lines, today, seenAt(lines, [lines, lines]));
    expect(read?.data?.lines[1]?.slice(0, 9)).not.toMatch(/[A-Z].*[A-Z]/);
  });
});

describe('readMrzLines: stray marks no check digit sees', () => {
  // Development passports 6 and 7 with their MRZ set wide (`wide` stress): a J read after the
  // names, and a K in the empty personal number (K weighs 20, 0 mod 10, as `<` does).
  it("clears a mark after the names' filler run, leaving the names as printed", () => {
    const read = readMrzLines(['P<USAPATEL<<LIAM<GIDEON<<<<<<<<<<<<<<<<<<<<J', 'G356068011USA8910129M2810124<<<<<<<<<<<<<<08'], today);
    expect(read?.data?.valid).toBe(true);
    expect(read?.data?.lines[0]).toBe('P<USAPATEL<<LIAM<GIDEON<<<<<<<<<<<<<<<<<<<<<');
    expect(read?.fields['Full Name']?.value).toBe('LIAM GIDEON PATEL');
  });

  it('clears a check-silent letter in an empty personal number', () => {
    const read = readMrzLines(['P<USAOKONKWO<<MARIA<OLGA<<<<<<<<<<<<<<<<<<<<', '7881234740USA7012255F2212256<<K<<<<<<<<<<<02'], today);
    expect(read?.data?.valid).toBe(true);
    expect(read?.data?.lines[1]).toBe('7881234740USA7012255F2212256<<<<<<<<<<<<<<02');
  });

  it('leaves a personal number that is there, with its K between fillers', () => {
    const lines = ['P<USAOKONKWO<<MARIA<OLGA<<<<<<<<<<<<<<<<<<<<', '7881234740USA7012255F2212256A1B<K2<<<<<<<<64'];
    const read = readMrzLines(lines, today);
    expect(read?.data?.valid).toBe(true);
    expect(read?.data?.lines).toEqual(lines);
  });
});

describe('readMrzLines: a sex letter a finger hid', () => {
  // Development `wide` 14: a finger over the sex field, read Y by the OCR-B model and V by the
  // legacy engine; every check digit holds.
  const covered = [NAMES, '9431553110USA5603266Y2303266<<<<<<<<<<<<<<06'];
  const passes = [covered, [NAMES, '9431553110USA5603266V2303266<<<<<<<<<<<<<<06']];

  it('takes the letter as unread (`<`), so the MRZ is read and the passes doubt its sex', () => {
    const read = readMrzLines(covered, today, seenAt(covered, passes));
    expect(read?.data?.valid).toBe(true);
    expect(read?.data?.lines[1]![20]).toBe('<');
    expect(read?.data?.corrections).toContainEqual({ line: 1, column: 20, from: 'Y', to: '<' });
    const doubts = mrzDoubts(read!.data!.lines, passes);
    expect(doubts.filter((d) => d.field === 'sex')).toHaveLength(1);
  });

  it('still reads a look-alike as the letter it resembles', () => {
    const read = readMrzLines([NAMES, '9431553110USA5603266H2303266<<<<<<<<<<<<<<06'], today);
    expect(read?.data?.lines[1]![20]).toBe('M');
  });
});
