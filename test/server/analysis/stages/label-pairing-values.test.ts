/**
 * Values are not labels: a city line printed above a bolder date is not an unread label over it,
 * nor is a date with its label glued on a discriminator or licence number (dev-variant fronts 5
 * and 15, PaddleOCR's boxes); a name with the classic layout's LN / FN glued on loses it.
 */
import { describe, expect, it } from 'vitest';
import type { LexiconReading } from '../../../../server/analysis/stages/label-lexicon.js';
import { pairLabels, type BoxRow, type TextBox } from '../../../../server/analysis/stages/label-pairing.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-06-01T00:00:00Z');
const FIELDS = ['DLN', 'FAMILY NAME', 'GIVEN NAMES', 'ADDRESS', 'DOB', 'EXP', 'ISS', 'SEX', 'HGT', 'EYES', 'CLASS', 'RSTR', 'END', 'DD'];
/** A box the recogniser read as `text`, scored against the labels: every field far off but DLN and DD. */
function box(text: string, x: number, y: number, w: number, h: number): TextBox {
  const lexicon: LexiconReading = { scores: { ...Object.fromEntries(FIELDS.map((f) => [f, -60])), DLN: -42, DD: -43.5 }, bestPath: -5.7 };
  return { text, confidence: 85, x, y, w, h, lexicon };
}
const rowOf = (...boxes: TextBox[]): BoxRow => ({ boxes, confidence: 85 });

describe('values are not unread labels', () => {
  it('keeps a city line above a date whose slash was lost as its own line', () => {
    // Dev-variant front 5: "DETROIT, MI 48251" read "DETRO .M48251" (20 px) over "03/03/1991" read "0303/1991" (25 px).
    const lines = pairLabels([rowOf(box('DETRO .M48251', 406, 380, 129, 20)), rowOf(box('0303/1991', 404, 410, 118, 25))]).map((l) => l.text);
    expect(lines).toContain('DETRO .M48251');
    expect(lines.join('\n')).not.toMatch(/DLN|DD 0303/);
  });

  it('does not take a date with its label glued on as a discriminator or licence number', () => {
    // Dev-variant front 15: the street line over "DOB05/17/1993".
    const lines = pairLabels([rowOf(box('6841OLD MILLRD', 320, 330, 150, 20)), rowOf(box('DOB05/17/1993', 318, 358, 160, 26))]).map((l) => l.text);
    expect(lines.join('\n')).not.toMatch(/^(?:DD|DLN) /m);
  });
});

describe('names with a glued classic label', () => {
  it('reads LNTHOMAS and FNLILY EMMA as the names', () => {
    const lines = ['NEW JERSEY', 'U58135515025842', 'LNTHOMAS', 'FNLILY EMMA', '6841 OLD MILL RD', 'NEWARK, NJ 07120'];
    const f = printedFields({ text: lines.join('\n'), confidence: 90, lines: lines.map((text) => ({ text, confidence: 90 })) }, today);
    expect(f['Full Name']?.value).toBe('LILY EMMA THOMAS');
  });
});

describe('a label read with its value is not a bare label', () => {
  it('keeps "CLASS B" whole, and reads no class from CLASS over another label (dev-variant front 1)', () => {
    const lexicon: LexiconReading = { scores: { ...Object.fromEntries(FIELDS.map((f) => [f, -40])), CLASS: -8 }, bestPath: -5 };
    const classB: TextBox = { text: 'CLASS B', confidence: 93, x: 490, y: 349, w: 58, h: 23, lexicon };
    const endNone: TextBox = { text: 'END NONE', confidence: 92, x: 491, y: 373, w: 68, h: 21 };
    const lines = pairLabels([rowOf(classB), rowOf(endNone)]);
    expect(lines.map((l) => l.text)).toEqual(['CLASS B', 'END NONE']);
    expect(printedFields({ text: '', confidence: 90, lines }, today)['DL Class']?.value).toBe('B');
    // "CLASS END NONE": CLAS then S is not the class.
    const glued = printedFields({ text: '', confidence: 90, lines: [{ text: 'CLASS END NONE', confidence: 90 }] }, today);
    expect(glued['DL Class']).toBeUndefined();
  });
});
