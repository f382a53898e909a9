/** The row indicators' lines at the symbol's two ends (pdf417-indicators.ts), as the soft reader places rows on them. */
import { describe, expect, it } from 'vitest';
import { endLines } from '../../../../server/analysis/stages/pdf417-indicators.js';

describe('endLines', () => {
  it("keeps the ends' own row lines beside the replaced one, for a second reading", async () => {
    const left = { a: 10, b: 23.7, n: 91 };
    const right = { a: 12, b: 12.6, n: 8 };
    // The right end rests on 8 reads for 19 rows and its pitch is half the left's: it takes the
    // left's line, and the ends' own lines are kept for when that reading decodes nothing.
    expect(endLines([left, right], 19)).toEqual({ lines: [left, left], own: [left, right] });
    // Ends that agree, or a disagreeing end read on as many points as rows, are taken as fitted.
    expect(endLines([left, { ...right, b: 22 }], 19)).toEqual({ lines: [left, { ...right, b: 22 }] });
    expect(endLines([left, { ...right, n: 19 }], 19)).toEqual({ lines: [left, { ...right, n: 19 }] });
    expect(endLines([null, right], 19)).toEqual({ lines: [right, right] });
  });
});
