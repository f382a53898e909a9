import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { uprightPage } from '../../../../server/analysis/stages/ocr.js';
import { readBoxes } from '../../../../server/analysis/stages/paddle.js';
import { missedWords, type Rect } from '../../../../server/analysis/stages/row-band.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPhoto } from '../../../fixtures/hard/set.js';

afterAll(closeEngines);

/** A light page (card stock at 215) with dark rectangles standing for glyphs. */
function page(glyphs: readonly Rect[], dark: readonly Rect[] = []): GreyPlane {
  const width = 600;
  const height = 200;
  const data = new Uint8Array(width * height).fill(215);
  const paint = (r: Rect, v: number): void => {
    for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) data[y * width + x] = v;
  };
  for (const r of dark) paint(r, 40);
  for (const r of glyphs) paint(r, 50);
  return { data, width, height };
}

// A row of values 10 px tall (as on a 900 px upload): the detector's box of "GRN" is padded to 17 px.
const grn = { x: 200, y: 92, w: 34, h: 17 };
const grnGlyphs = [0, 10, 20].map((dx) => ({ x: 205 + dx, y: 96, w: 7, h: 10 }));
// A line of the card found whole (a name, blank here): the boxes' extent is the text's, where words are looked for.
const nameBox = { x: 20, y: 30, w: 560, h: 17 };

describe('missedWords', () => {
  it('finds a lone letter in the band of a value the detector found, and only it', () => {
    const lone = { x: 100, y: 96, w: 7, h: 10 };
    const words = missedWords(page([...grnGlyphs, lone]), [nameBox, grn]);
    expect(words).toHaveLength(1);
    const [w] = words as [Rect];
    expect(w.x).toBeLessThan(lone.x);
    expect(w.x + w.w).toBeGreaterThan(lone.x + lone.w);
    expect(w.y).toBeLessThan(lone.y);
    expect(w.y + w.h).toBeGreaterThan(lone.y + lone.h);
  });

  it('joins glyphs a letter space apart into one word, and keeps words a field apart', () => {
    const height = [0, 9, 18].map((dx) => ({ x: 300 + dx, y: 96, w: 6, h: 10 }));
    const code = { x: 420, y: 96, w: 7, h: 10 };
    const words = missedWords(page([...grnGlyphs, ...height, code]), [nameBox, grn]);
    expect(words).toHaveLength(2);
    expect(words[0]!.w).toBeGreaterThan(24);
  });

  it('leaves ink the detector covered, ink off the row, print of another size and ink on a dark stretch', () => {
    const covered = { x: 140, y: 96, w: 7, h: 10 };
    const coveringBox = { x: 135, y: 92, w: 18, h: 17 };
    const offRow = { x: 300, y: 120, w: 7, h: 10 };
    const tiny = { x: 340, y: 99, w: 3, h: 3 };
    const big = { x: 380, y: 88, w: 12, h: 24 };
    const inPortrait = { x: 40, y: 96, w: 7, h: 10 };
    const portrait = { x: 10, y: 20, w: 80, h: 160 };
    // The detector's box of a lone letter may be no taller than the letter (variant front 0: "A" in a 9 px box): it was read, not missed.
    const tight = { x: 470, y: 96, w: 7, h: 10 };
    const tightBox = { x: 468, y: 96, w: 12, h: 9 };
    const g = page([...grnGlyphs, covered, offRow, tiny, big, inPortrait, tight], [portrait]);
    expect(missedWords(g, [nameBox, grn, coveringBox, tightBox])).toEqual([]);
  });

  it('does not scan rows of small print (labels)', () => {
    const label = { x: 200, y: 60, w: 30, h: 9 };
    const lone = { x: 100, y: 62, w: 4, h: 5 };
    expect(missedWords(page([lone]), [nameBox, grn, label])).toEqual([]);
  });
});

describe('lone values PaddleOCR finds beside the values it detected', { timeout: 600_000 }, () => {
  it('reads the lone F (sex) and C (class) of dev-variant front 2, which its detector passes over', async () => {
    // The `stacked` front in DejaVu Serif: the row "F 4'-11\" GRN C" at ~10 px, the detector finds GRN alone.
    const g = toGrey(await fitRaster((await prepareInput(await hardPhoto(HALVES['dev-variant'], 2, 'licence-front'))).raster, 2000));
    const boxes = await readBoxes(await uprightPage(g));
    const grnBox = boxes.find((b) => b.text === 'GRN');
    expect(grnBox).toBeDefined();
    const row = boxes.filter((b) => Math.abs(b.y + b.h / 2 - (grnBox!.y + grnBox!.h / 2)) < grnBox!.h / 2).map((b) => b.text);
    expect(row).toEqual(expect.arrayContaining(['F', 'GRN', 'C']));
  });
});
