import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { REREAD_TARGETS, rereadByLabels, valueWord, type CropReader } from '../../../../server/analysis/stages/label-reread.js';
import { uprightPage } from '../../../../server/analysis/stages/ocr.js';
import { readBoxes, readWord } from '../../../../server/analysis/stages/paddle.js';
import type { Rect } from '../../../../server/analysis/stages/row-band.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPhoto } from '../../../fixtures/hard/set.js';

afterAll(closeEngines);

/** A light page (card stock at 215) with dark rectangles standing for glyphs. */
function page(glyphs: readonly Rect[]): GreyPlane {
  const width = 400;
  const height = 160;
  const data = new Uint8Array(width * height).fill(215);
  for (const r of glyphs) for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) data[y * width + x] = 50;
  return { data, width, height };
}

const sex = REREAD_TARGETS.find((t) => t.field === 'Sex')!;
/** "SEX" in 6 px capitals, as a reader boxes it (tight, as tesseract's words are). */
const labelGlyphs = [0, 6, 12].map((dx) => ({ x: 100 + dx, y: 60, w: 4, h: 6 }));
const labelBox = { x: 100, y: 60, w: 16, h: 6 };
const inside = (r: Rect, g: Rect): boolean => r.x <= g.x && r.x + r.w >= g.x + g.w && r.y <= g.y && r.y + r.h >= g.y + g.h;

describe('valueWord', () => {
  it('finds the larger value right of its label, sharing its baseline', () => {
    const value = { x: 124, y: 56, w: 7, h: 10 };
    const r = valueWord(page([...labelGlyphs, value]), labelBox, sex, 'right');
    expect(r).not.toBeNull();
    expect(inside(r!, value)).toBe(true);
    expect(r!.x).toBeGreaterThan(labelBox.x + labelBox.w - 4);
  });

  it('finds the value under its label, and the leftmost glyph of its top line first', () => {
    const height = [0, 9, 18].map((dx) => ({ x: 100 + dx, y: 72, w: 6, h: 10 }));
    const r = valueWord(
      page([...labelGlyphs, ...height]),
      labelBox,
      REREAD_TARGETS.find((t) => t.field === 'Eyes Color')!,
      'below',
    );
    expect(r).not.toBeNull();
    for (const g of height) expect(inside(r!, g)).toBe(true);
  });

  it('takes no ink of the label size (the next label) and nothing far from the label', () => {
    const nextLabel = [0, 6, 12].map((dx) => ({ x: 124 + dx, y: 60, w: 4, h: 6 }));
    expect(valueWord(page([...labelGlyphs, ...nextLabel]), labelBox, sex, 'right')).toBeNull();
    const far = { x: 180, y: 56, w: 7, h: 10 };
    expect(valueWord(page([...labelGlyphs, far]), labelBox, sex, 'right')).toBeNull();
  });
});

describe('rereadByLabels', () => {
  const g = page([...labelGlyphs, { x: 124, y: 56, w: 7, h: 10 }, { x: 100, y: 72, w: 7, h: 10 }]);
  const words = [{ text: 'SEX', confidence: 80, ...labelBox }];
  const reader =
    (right: string, below: string, confidence = 99): CropReader =>
    (rect) =>
      Promise.resolve({ text: rect.y < 60 ? right : below, confidence });

  it('keeps a value of the field shape that every crop read alike', async () => {
    expect(await rereadByLabels(g, words, new Set(['Sex']), reader('F', 'F'))).toEqual({ Sex: { value: 'F', confidence: 40 } });
    // The crop under it read no sex letter: the one beside it stands.
    expect(await rereadByLabels(g, words, new Set(['Sex']), reader('F', '04/03/2'))).toEqual({ Sex: { value: 'F', confidence: 40 } });
  });

  it('reads nothing when the crops disagree, the recogniser is unsure, or the field is not missing', async () => {
    expect(await rereadByLabels(g, words, new Set(['Sex']), reader('F', 'M'))).toEqual({});
    expect(await rereadByLabels(g, words, new Set(['Sex']), reader('F', 'F', 80))).toEqual({});
    expect(await rereadByLabels(g, words, new Set(['DL Class']), reader('F', 'F'))).toEqual({});
  });
});

describe('values read again under labels a reader found', { timeout: 600_000 }, () => {
  it('reads the code fields of dev-variant front 6 from under the labels PaddleOCR boxed', async () => {
    // The `stacked` front: its labels boxed as "ISSEX", "SCLASS", "IBEYES" (the field numbers
    // misread), the values under them run together or boxed with their neighbours ("ABNON").
    const g = await uprightPage(toGrey(await fitRaster((await prepareInput(await hardPhoto(HALVES['dev-variant'], 6, 'licence-front'))).raster, 2000)));
    const fields = new Set(REREAD_TARGETS.map((t) => t.field));
    const got = await rereadByLabels(g, await readBoxes(g), fields, (rect) => readWord(g, rect));
    expect(Object.fromEntries(Object.entries(got).map(([k, v]) => [k, v.value]))).toEqual({
      Sex: 'M',
      'DL Class': 'M',
      'Eyes Color': 'BLK',
      'DL Restriction Code': 'AB',
      'DL Endorsed': 'NONE',
    });
  });
});
