import { describe, expect, it } from 'vitest';
import { dateDistractors, numberDistractors, shuffle } from '../../../../server/methods/knowledge/distractors.js';
import { normaliseDate } from '../../../../server/methods/knowledge/rules.js';

describe('distractors of the same form as the answer', () => {
  it('dates: three other real dates near it, all YYYY-MM-DD', () => {
    for (let run = 0; run < 200; run++) {
      const out = dateDistractors('2000-02-29', 3);
      expect(out).toHaveLength(3);
      expect(new Set(out).size).toBe(3);
      for (const d of out) {
        expect(d).not.toBe('2000-02-29');
        expect(normaliseDate(d)).toBe(d);
        expect(Math.abs(Number(d.slice(0, 4)) - 2000)).toBeLessThanOrEqual(4);
      }
    }
  });

  it('numbers: as many digits, a leading zero possible only when the answer has one', () => {
    for (let run = 0; run < 200; run++) {
      for (const answer of ['0421', '7391', '7', '12']) {
        const out = numberDistractors(answer, 3);
        expect(out).toHaveLength(3);
        expect(new Set([answer, ...out]).size).toBe(4);
        for (const n of out) {
          expect(n).toMatch(new RegExp(`^\\d{${answer.length}}$`));
          if (!answer.startsWith('0') && answer.length > 1) expect(n.startsWith('0')).toBe(false);
        }
      }
    }
  });

  it('the answer lands in every position of a shuffled list', () => {
    const seen = new Set<number>();
    for (let run = 0; run < 200; run++) seen.add(shuffle(['answer', 'b', 'c', 'd']).indexOf('answer'));
    expect([...seen].sort()).toEqual([0, 1, 2, 3]);
  });
});

describe('normaliseDate', () => {
  it('reads the unambiguous spellings of a date and refuses the rest', () => {
    for (const text of ['1990-04-12', '1990/4/12', '1990.04.12', '19900412', '12.04.1990', '12.4.1990']) expect(normaliseDate(text), text).toBe('1990-04-12');
    for (const text of ['04/12/1990', '12/04/1990', '1990-02-30', '1990-13-01', 'April 12', '']) expect(normaliseDate(text), text).toBeNull();
  });
});
