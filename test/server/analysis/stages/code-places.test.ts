/**
 * Sex, class, restrictions and endorsements printed under labels no reader could read, named by
 * their place and shape (code-places.ts), as PaddleOCR's boxes of a labels-above-values front
 * give them: the rows of values only, the 5-7 px labels above them read as nothing.
 */
import { describe, expect, it } from 'vitest';
import type { TextBox } from '../../../../server/analysis/stages/label-pairing.js';
import { boxesToLines } from '../../../../server/analysis/stages/paddle-lines.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-06-01T00:00:00Z');
const box = (text: string, x: number, y: number, h = 20, confidence = 95): TextBox => ({
  text,
  confidence,
  x,
  y,
  w: Math.max(h * 0.8, text.length * 0.6 * h),
  h,
});
/** The rows above the codes every front has: licence number, names, address, dates. */
const top = [
  box('D400582745184', 330, 130, 24),
  box('NGUYEN', 330, 190, 22),
  box('RAJ DMITRI', 330, 246),
  box('2438 CEDAR LANE', 330, 300),
  box('DETROIT, MI 48251', 330, 328),
  box('03/03/1991', 330, 370),
  box('03/03/2030', 560, 370),
  box('12/18/2022', 780, 370),
];
const read = (boxes: TextBox[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(printedFields(boxesToLines([...top, ...boxes]), today)).map(([k, v]) => [k, v.value]));

describe('codes named by their place and shape', () => {
  it('names sex beside the height, class before restrictions and endorsements, and the NONE left', () => {
    const f = read([box('M', 330, 430), box('6\'-03"', 440, 430), box('GRY', 580, 430), box('C', 700, 430), box('RSTR NONE', 330, 486), box('NONE', 480, 486)]);
    expect(f['Sex']).toBe('M');
    expect(f['Height']).toBe('6\'-03"');
    expect(f['Eyes Color']).toBe('GRY');
    expect(f['DL Class']).toBe('C');
    expect(f['DL Restriction Code']).toBe('NONE');
    expect(f['DL Endorsed']).toBe('NONE');
  });

  it('names the one code left when class and restrictions are read (an endorsement T)', () => {
    const f = read([
      box('F', 330, 430),
      box('6\'-04"', 440, 430),
      box('BLU', 580, 430),
      box('CLASS C', 700, 430),
      box('RSTR NONE', 330, 486),
      box('T', 480, 486),
    ]);
    expect(f['Sex']).toBe('F');
    expect(f['DL Endorsed']).toBe('T');
  });

  it('leaves a lone code that could be class, restrictions or endorsements unnamed', () => {
    const f = read([box('F', 330, 430), box('6\'-04"', 440, 430), box('BLU', 580, 430), box('C', 700, 430)]);
    expect(f['Sex']).toBe('F');
    expect(f['DL Class']).toBeUndefined();
    expect(f['DL Restriction Code']).toBeUndefined();
    expect(f['DL Endorsed']).toBeUndefined();
  });

  it('does not take a class M further along the row as the sex, nor the sex as the class', () => {
    // The sex F read twice at one place, the class M after the eye colour.
    const f = read([box('F', 330, 430), box('F', 331, 430, 19), box('5\'-10"', 440, 430), box('GRY', 580, 430), box('M', 700, 432, 14), box('NONE', 480, 486)]);
    expect(f['Sex']).toBe('F');
    expect(f['DL Class']).not.toBe('F');
    const noHeight = read([box('GRY', 580, 430), box('M', 700, 430)]);
    expect(noHeight['Sex']).toBeUndefined();
    expect(noHeight['DL Class']).toBeUndefined();
  });

  it('takes no code from a row of small label debris or from the name rows', () => {
    const f = read([
      box('P', 440, 408, 8, 67),
      box('OAS', 700, 408, 9, 54),
      box('F', 330, 430),
      box('6\'-04"', 440, 430),
      box('BLU', 580, 430),
      box('NM', 330, 218),
      box('CLASS C', 700, 430),
    ]);
    expect(f['DL Restriction Code']).toBeUndefined();
    expect(f['DL Endorsed']).toBeUndefined();
  });
  it('names the sex beside a height whose foot mark was read as a backtick, before a label box scored for another field takes it', () => {
    // Dev-variant 19 (stacked): "15 SEX" above the F read "S", scored closer to END than to SEX
    // (a shorter label costs fewer steps); the height read 5`06".
    const lexicon = { scores: { SEX: -11.8, CLASS: -23.1, RSTR: -16.7, END: -9.9 }, bestPath: -5 };
    const label: TextBox = { ...box('S', 330, 410, 10, 21), lexicon };
    const f = read([label, box('F', 330, 430), box('5`06"', 440, 430), box('GRN', 580, 430)]);
    expect(f['Sex']).toBe('F');
    expect(f['DL Endorsed']).toBeUndefined();
  });
});
