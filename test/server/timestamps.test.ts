import { describe, expect, it } from 'vitest';
import { isoWithOffset, sqlTimestamp } from '../../server/timestamps.js';

describe('timestamps', () => {
  it('writes the spec user-field format from a Date, a stored timestamp or any other date text alike', () => {
    const at = new Date('2026-03-04T05:06:07.890Z');
    expect(sqlTimestamp(at)).toBe('2026-03-04 05:06:07');
    expect(sqlTimestamp(at.toISOString())).toBe('2026-03-04 05:06:07');
    expect(sqlTimestamp('2026-03-04T07:06:07+02:00')).toBe('2026-03-04 05:06:07');
  });

  it('writes webhook times with an explicit +00:00 offset', () => {
    expect(isoWithOffset(new Date('2026-03-04T05:06:07.890Z'))).toBe('2026-03-04T05:06:07.890+00:00');
  });
});
