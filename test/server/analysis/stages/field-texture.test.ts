import { describe, expect, it } from 'vitest';
import type { GreyPlane } from '../../../../server/analysis/raster.js';
import { paperTexture } from '../../../../server/analysis/stages/field-texture.js';
import type { TextBox } from '../../../../server/analysis/stages/label-pairing.js';

const W = 400;
const H = 160;
/** The word's box: strokes drawn inside it. */
const WORD: TextBox = { text: '04/04/1968', confidence: 90, x: 150, y: 60, w: 100, h: 24 };

/**
 * Card paper with fine line work (two crossing waves of periods 5.2 and 8.2 px, ±6 grey levels
 * each) and a little noise, a word of
 * dark vertical strokes in WORD; `patch` paints the paper round the word flat first (the forger's
 * smudge), the noise added after it as the capture would.
 */
function page(patch: boolean): GreyPlane {
  const data = new Uint8Array(W * H);
  let s = 7;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const inPatch = patch && x >= WORD.x - 6 && x < WORD.x + WORD.w + 6 && y >= WORD.y - 5 && y < WORD.y + WORD.h + 5;
      let v = inPatch ? 210 : 210 + 6 * Math.sin((x + y) / 0.83) + 6 * Math.sin((x - 2 * y) / 1.3);
      if (x >= WORD.x && x < WORD.x + WORD.w && y >= WORD.y + 2 && y < WORD.y + WORD.h - 2 && (x - WORD.x) % 10 < 3) v = 40;
      s = (s * 1103515245 + 12345) >>> 0;
      data[y * W + x] = Math.round(v + ((s >>> 24) % 5) - 2);
    }
  return { data, width: W, height: H };
}

describe('paper texture under a word (field-texture.ts)', () => {
  it('finds the paper under a word as textured as the paper round it on a printed card', () => {
    const t = paperTexture(page(false), WORD, [WORD])!;
    expect(t.inside / t.around).toBeGreaterThan(0.85);
    expect(t.around).toBeGreaterThan(2);
  });

  it('finds the paper under a word painted flat, only noise left on it', () => {
    const t = paperTexture(page(true), WORD, [WORD])!;
    expect(t.inside / t.around).toBeLessThan(0.5);
  });

  it('leaves out the print of the other words round it', () => {
    // A neighbour whose box covers the textured paper on the right: without it the same
    // surroundings measure the same, so the ratio does not move much.
    const neighbour: TextBox = { text: 'NONE', confidence: 90, x: 270, y: 60, w: 60, h: 24 };
    const g = page(true);
    const alone = paperTexture(g, WORD, [WORD])!;
    const beside = paperTexture(g, WORD, [WORD, neighbour])!;
    expect(beside.samples).toBe(alone.samples);
    expect(beside.inside / beside.around).toBeLessThan(0.5);
  });

  it('says nothing of a word with too little paper round it', () => {
    const g = page(false);
    // A word filling a strip of the page: the paper round it is under the 200 samples asked for.
    const strip: GreyPlane = { data: g.data.subarray(0, 40 * H), width: 40, height: H };
    expect(paperTexture(strip, { ...WORD, x: 4, w: 32, y: 10, h: 140 }, [])).toBeNull();
  });
});
