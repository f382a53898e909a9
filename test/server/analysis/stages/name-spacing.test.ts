import { describe, expect, it } from 'vitest';
import type { ProcessorField } from '../../../../server/analysis/stages/aamva.js';
import { partRunNames } from '../../../../server/analysis/stages/name-spacing.js';

const f = (v: Record<string, string>): Record<string, ProcessorField> =>
  Object.fromEntries(Object.entries(v).map(([k, value]) => [k, { value, confidence: 50 }]));
const values = (o: Record<string, ProcessorField>): Record<string, string> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v.value)]));

// Readings of dev-variant front 11: PaddleOCR ran the given names together, tesseract read them
// apart but lost the city line, so PaddleOCR's names were the ones taken.
const paddleNames = { 'Full Name': 'ANNAOLIVIA WILLIAMS', 'First Name': 'ANNAOLIVIA', 'Last Name': 'WILLIAMS' };
const lines = ['MASSACHUSETTS', 'WILLIAMS', 'ANNA OLIVIA', 'BASTON, MA 0210)', 'WILLIAMS', ':ANNAOLIVIA', 'BOSTON,MA02101', 'ANNA WILLIAMS'];

describe('partRunNames', () => {
  it('parts given names run together where the other reading prints them apart', () => {
    const out = values(partRunNames(f(paddleNames), lines));
    expect(out['Full Name']).toBe('ANNA OLIVIA WILLIAMS');
    expect(out['First Name']).toBe('ANNA');
    expect(out['Middle Name']).toBe('OLIVIA');
    expect(out['Last Name']).toBe('WILLIAMS');
  });

  it('parts a middle name run on to a second one, the first name kept', () => {
    const out = values(
      partRunNames(f({ 'Full Name': 'VIKTOR JAMESLEE MARTIN', 'First Name': 'VIKTOR', 'Middle Name': 'JAMESLEE', 'Last Name': 'MARTIN' }), [
        'JAMES LEE',
        'VIKTOR',
      ]),
    );
    expect(out['Full Name']).toBe('VIKTOR JAMES LEE MARTIN');
    expect(out['Middle Name']).toBe('JAMES LEE');
  });

  it('leaves a name whole when only one half stands alone on the page, or a half is a two-letter code', () => {
    expect(values(partRunNames(f(paddleNames), ['ANNA WILLIAMS', ':ANNAOLIVIA']))['Full Name']).toBe('ANNAOLIVIA WILLIAMS');
    const maria = f({ 'Full Name': 'MARIA LOPEZ', 'First Name': 'MARIA', 'Last Name': 'LOPEZ' });
    expect(values(partRunNames(maria, ['BOSTON, MA 02101', 'RIA']))['Full Name']).toBe('MARIA LOPEZ');
  });

  it('leaves names already spaced, and fields without names, as they are', () => {
    const spaced = f({ 'Full Name': 'ANNA OLIVIA WILLIAMS', 'First Name': 'ANNA', 'Middle Name': 'OLIVIA', 'Last Name': 'WILLIAMS' });
    expect(values(partRunNames(spaced, lines))).toEqual(values(spaced));
    expect(values(partRunNames(f({ Sex: 'F' }), lines))).toEqual({ Sex: 'F' });
  });
});
