/**
 * Codes paired with unread labels by the closed list's scores (label-shapes.ts) are left unread
 * when they put the class after a restriction or an endorsement: cards print the class first, and
 * the scores of a 5-7 px label box favour the shorter labels over CLASS whatever is printed there.
 * The boxes are dev-variant front 27's (stacked layout) as PaddleOCR read them, scores rounded.
 */
import { describe, expect, it } from 'vitest';
import type { LexiconReading } from '../../../../server/analysis/stages/label-lexicon.js';
import type { TextBox } from '../../../../server/analysis/stages/label-pairing.js';
import { boxesToLines } from '../../../../server/analysis/stages/paddle-lines.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-06-01T00:00:00Z');
const FIELDS = ['DLN', 'FAMILY NAME', 'GIVEN NAMES', 'ADDRESS', 'DOB', 'EXP', 'ISS', 'SEX', 'HGT', 'EYES', 'CLASS', 'RSTR', 'END', 'DD'];
/** A box read as `text`; `scores`: the code fields' (the others far off), or none for a long value. */
function box(text: string, confidence: number, x: number, y: number, w: number, h: number, scores?: Readonly<Record<string, number>>): TextBox {
  const lexicon: LexiconReading | undefined = scores ? { scores: { ...Object.fromEntries(FIELDS.map((f) => [f, -60])), ...scores }, bestPath: -2 } : undefined;
  return { text, confidence, x, y, w, h, ...(lexicon ? { lexicon } : {}) };
}

describe('class first', () => {
  it('leaves a class and restrictions paired crosswise unread (dev-variant 27: class E, restrictions AB)', () => {
    const boxes = [
      box('COLORADO', 99, 138, 181, 143, 25),
      box('DRIVERLICENSE', 96, 533, 186, 126, 19),
      box('778083185', 100, 301, 231, 105, 20),
      box('MARTINEZ', 98, 299, 265, 98, 18),
      box('MASON OWEN', 96, 297, 296, 111, 18),
      box('SRA MAPLEAVE', 80, 295, 327, 111, 17),
      box('DENVER CO 80215', 88, 294, 341, 125, 20),
      box('04/24/1981', 100, 292, 363, 91, 20),
      box('04/24/2030', 94, 414, 362, 85, 20),
      box('01/21/2025', 97, 530, 363, 77, 18),
      // The labels over sex, height, eyes and class, garbled; then their values.
      box('09', 40, 293, 387, 26, 12, { SEX: -23.8, CLASS: -34.3, RSTR: -31.4, END: -22.4 }),
      box('SS', 27, 426, 388, 28, 10, { SEX: -18.1, CLASS: -19.9, RSTR: -20.4, END: -16.7, EYES: -17 }),
      box('H0S', 44, 491, 389, 16, 5, { SEX: -16.6, CLASS: -23.4, RSTR: -17.3, END: -15.2 }),
      box('M', 89, 290, 397, 18, 16, { SEX: -24.8, CLASS: -41.3, RSTR: -32.7, END: -25.3 }),
      box('-IP*', 49, 350, 397, 43, 16),
      box('HIA Z', 91, 424, 397, 31, 14),
      box('E', 90, 484, 395, 12, 16, { SEX: -24.1, CLASS: -51.9, RSTR: -39.4, END: -26.3 }),
      // The labels over restrictions and endorsements (the first one unboxed), then their values.
      box('666', 47, 370, 418, 26, 11, { SEX: -21.2, CLASS: -32.6, RSTR: -29.9, END: -22.7 }),
      box('AB', 76, 292, 430, 17, 11, { SEX: -17, CLASS: -31.9, RSTR: -23.5, END: -16.1 }),
      box('NONE', 99, 369, 427, 39, 14, { SEX: -35.9, CLASS: -51.1, RSTR: -39.5, END: -25.4 }),
    ];
    const f = printedFields(boxesToLines(boxes), today);
    expect(f['DL Class']?.value).not.toBe('AB');
    expect(f['DL Restriction Code']?.value).not.toBe('E');
    expect(f['DL Endorsed']?.value).toBe('NONE');
    expect(f['Sex']?.value).toBe('M');
  });
});
