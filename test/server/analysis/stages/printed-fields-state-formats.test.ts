/**
 * The licence number read by its issuing state's published formats (licence-number.ts): a
 * look-alike repaired only when one repair fits, a glued label's leftover cut off, the token that
 * fits preferred, and nothing changed when the state is unknown. The label leftovers are the
 * development half's misses of 2026-11-29 (fronts 20, 24 and 26, PaddleOCR's lines).
 */
import { describe, expect, it } from 'vitest';
import { readForState } from '../../../../server/analysis/stages/licence-number.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-06-01T00:00:00Z');
const ocr = (texts: string[]) => ({ text: texts.join('\n'), confidence: 90, lines: texts.map((text) => ({ text, confidence: 90 })) });
const numberOf = (lines: string[]) => printedFields(ocr(lines), today)['Document Number']?.value;

describe('look-alikes repaired by the state formats', () => {
  it("repairs California's leading letter read as its look-alike digit", () => {
    // California: 1 letter + 7 digits; "17654321" fits no format, "I7654321" is the one repair that does.
    expect(numberOf(['CALIFORNIA DRIVER LICENSE', 'DL 17654321', 'ERIKSSON'])).toBe('I7654321');
  });

  it('repairs a digit read as a letter where every format wants digits', () => {
    // Texas: 7-8 digits.
    expect(numberOf(['TEXAS DRIVER LICENSE', 'DL 4123457B', 'GARCIA'])).toBe('41234578');
  });

  it('takes the state from the address when the header is unread', () => {
    const lines = ['DL 17654321', 'ERIKSSON', 'ANNA MARIA', '1234 MAPLE AVENUE', 'SACRAMENTO, CA 95814'];
    expect(numberOf(lines)).toBe('I7654321');
  });

  it("repairs Florida's leading O read as 0", () => {
    // Florida: 1 letter + 12 digits.
    expect(numberOf(['FLORIDA DRIVER LICENSE', 'DL 0165432759012', 'OKAFOR'])).toBe('O165432759012');
  });

  it('keeps the reading when two repairs fit', () => {
    // New York prints 8-9 digits or 1 letter + 7: 12345678 (B read for 8) and I2345678 both fit.
    expect(readForState('1234567B', 'NY')).toBeNull();
    expect(numberOf(['NEW YORK STATE', 'DL 1234567B', 'OKAFOR'])).toBe('1234567B');
    // A label's leftover cut (23456789) or a 1 read I (123456789).
    expect(readForState('I23456789', 'NY')).toBeNull();
  });

  it('changes nothing when the state is unknown', () => {
    expect(numberOf(['DL 17654321', 'ERIKSSON'])).toBe('17654321');
    expect(readForState('17654321', 'GU')).toBeNull();
  });
});

describe("a glued label's leftover", () => {
  it('is cut when the rest fits the state as read', () => {
    expect(numberOf(['MASSACHUSETTS', 'LS25388095', 'OBRIEN'])).toBe('S25388095');
    expect(numberOf(['TEXAS', 'DIN93175183', 'GARCIA'])).toBe('93175183');
    expect(numberOf(['FLORIDA', 'LY162992000659', 'OKAFOR'])).toBe('Y162992000659');
  });

  it('is kept where the state has no format without it', () => {
    // Washington's numbers begin with up to seven letters: the L may be the number's own.
    expect(readForState('LSMITHJ123AB', 'WA')?.value).toBe('LSMITHJ123AB');
  });
});

describe('the token that fits the state preferred', () => {
  it('takes the number that fits over an earlier run of digits that fits only repaired', () => {
    // "81176245" (a run from another field, first in reading order) fits California only as
    // B1176245; D1234567 fits as read.
    expect(numberOf(['CALIFORNIA DRIVER LICENSE', '81176245', 'D1234567', 'ERIKSSON'])).toBe('D1234567');
  });

  it('takes a token that fits over a labelled one that cannot be a number of the state', () => {
    expect(numberOf(['CALIFORNIA DRIVER LICENSE', 'DL 123456789012', 'D1234567', 'ERIKSSON'])).toBe('D1234567');
  });
});
