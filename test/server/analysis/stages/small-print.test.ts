import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import type { GreyPlane } from '../../../../server/analysis/raster.js';
import { readBoxes } from '../../../../server/analysis/stages/paddle.js';
import type { Rect } from '../../../../server/analysis/stages/row-band.js';
import { devVariantFrontPage, glyphPage } from './glyph-page.js';
import { grownSmallLines } from '../../../../server/analysis/stages/small-print.js';

afterAll(closeEngines);

const page = (glyphs: readonly Rect[]): GreyPlane => glyphPage(600, 200, glyphs);

// Values 12 px tall boxed at 20 px (the page's usual box), and a line of small print 6 px tall.
const values = [
  { x: 20, y: 20, w: 200, h: 20 },
  { x: 20, y: 60, w: 200, h: 20 },
  { x: 300, y: 60, w: 120, h: 20 },
];
const small = (x0: number, n: number, y = 150): Rect[] => Array.from({ length: n }, (_, i) => ({ x: x0 + i * 6, y, w: 4, h: 6 }));

describe('grownSmallLines', () => {
  it('grows a small-print box cut short through the ink that continues its line, with the pieces it covers', () => {
    // Twenty glyphs from x 100 to 218; the detector boxed the first eight and, apart, two more.
    const g = page(small(100, 20));
    const cut = { x: 98, y: 147, w: 50, h: 11 };
    const piece = { x: 170, y: 148, w: 14, h: 9 };
    const lines = grownSmallLines(g, [...values, cut, piece]);
    expect(lines).toHaveLength(1);
    const [line] = lines as [(typeof lines)[0]];
    expect(line.grew).toBe(true);
    expect(line.replaces).toEqual([3, 4]);
    expect(line.rect.x).toBeLessThan(100);
    expect(line.rect.x + line.rect.w).toBeGreaterThan(218);
    // Padded above and below the glyphs (a crop no taller than them reads as noise).
    expect(line.rect.y).toBeLessThan(150);
    expect(line.rect.y + line.rect.h).toBeGreaterThan(156);
  });

  it('does not grow a box that holds its line whole, and stops at a column gap and at larger print', () => {
    const whole = small(100, 8);
    const farAway = small(300, 5); // a second column, 60 px on
    const bigGlyphs = [0, 10, 20].map((dx) => ({ x: 150 + dx, y: 144, w: 7, h: 12 }));
    const g = page([...whole, ...farAway, ...bigGlyphs]);
    const box = { x: 97, y: 147, w: 50, h: 11 };
    const bigBox = { x: 146, y: 140, w: 34, h: 20 };
    const [line] = grownSmallLines(g, [...values, box, bigBox]);
    expect(line?.grew).toBe(false);
    expect(line!.rect.x + line!.rect.w).toBeLessThan(150);
  });

  it('leaves boxes of the page’s usual print alone', () => {
    const g = page([...small(100, 20, 25)]);
    expect(grownSmallLines(g, values)).toEqual([]);
  });
});

describe('small print PaddleOCR read in pieces, read again whole', { timeout: 600_000 }, () => {
  const texts = async (index: number): Promise<string[]> => {
    return (await readBoxes(await devVariantFrontPage(index))).map((b) => b.text.replace(/\s/g, ''));
  };

  it('reads the whole discriminator line of dev-variant front 12, which its detector cut short', async () => {
    // `classic` layout, DejaVu Sans Condensed: "DD 67545105615530398141" at ~7 px, boxed as far as "…5530".
    expect(await texts(12)).toContain('DD67545105615530398141');
  });

  it('reads the issue date of dev-variant front 2 that a box no taller than its glyphs misread', async () => {
    // `stacked` layout, Liberation Sans Narrow: 03/22/2025 at ~7 px, read "82220" at 29 % from the detector's crop.
    const read = await texts(2);
    expect(read).toContain('0322/2025');
    expect(read).not.toContain('82220');
  });
});
