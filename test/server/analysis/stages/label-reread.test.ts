import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import type { GreyPlane } from '../../../../server/analysis/raster.js';
import { REREAD_TARGETS, rereadByLabels, valueWord, type CropReader } from '../../../../server/analysis/stages/label-reread.js';
import { readBoxes, readWord } from '../../../../server/analysis/stages/paddle.js';
import type { Rect } from '../../../../server/analysis/stages/row-band.js';
import { devVariantFrontPage, glyphPage } from './glyph-page.js';

afterAll(closeEngines);

const page = (glyphs: readonly Rect[]): GreyPlane => glyphPage(400, 160, glyphs);

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
  const beside = { x: 124, y: 56, w: 7, h: 10 };
  const under = { x: 100, y: 72, w: 7, h: 10 };
  const words = [{ text: 'SEX', confidence: 80, ...labelBox }];
  const reader =
    (right: string, below: string, confidence = 99): CropReader =>
    (rect) =>
      Promise.resolve({ text: rect.y < 60 ? right : below, confidence });

  it('reads the value beside the label, and then not the ink under it (the next row of a card that prints values beside labels)', async () => {
    const g = page([...labelGlyphs, beside, under]);
    expect(await rereadByLabels(g, words, new Set(['Sex']), reader('F', 'M'))).toEqual({ Sex: { value: 'F', confidence: 40 } });
  });

  it('reads the value under the label when nothing value-sized stands beside it', async () => {
    const g = page([...labelGlyphs, under]);
    expect(await rereadByLabels(g, words, new Set(['Sex']), reader('F', 'M'))).toEqual({ Sex: { value: 'M', confidence: 40 } });
  });

  it('reads nothing when two labels read differently, the recogniser is unsure, the shape is wrong or the field is not missing', async () => {
    const g = page([...labelGlyphs, beside]);
    let calls = 0;
    const alternating: CropReader = () => Promise.resolve({ text: calls++ % 2 ? 'M' : 'F', confidence: 99 });
    expect(await rereadByLabels(g, [...words, ...words], new Set(['Sex']), alternating)).toEqual({});
    expect(await rereadByLabels(g, words, new Set(['Sex']), reader('F', 'F', 80))).toEqual({});
    expect(await rereadByLabels(g, words, new Set(['Sex']), reader('FM', 'F'))).toEqual({});
    expect(await rereadByLabels(g, words, new Set(['DL Class']), reader('F', 'F'))).toEqual({});
  });

  it('measures a faint label broken into pieces by its joint extent, not by the value its padded box reaches into', async () => {
    // Development front 22: "CLASS" in dark red at ~9 px breaks into pieces 6-7 px tall at the
    // ink threshold; PaddleOCR's box of it (20 px tall) ends inside the bold 13 px "D" beside it.
    const pieces = [
      { x: 208, y: 85, w: 5, h: 6 },
      { x: 220, y: 86, w: 7, h: 7 },
      { x: 232, y: 85, w: 5, h: 8 },
    ];
    const d = { x: 254, y: 81, w: 11, h: 13 };
    const r = valueWord(
      page([...pieces, d]),
      { x: 205, y: 79, w: 51, h: 20 },
      REREAD_TARGETS.find((t) => t.field === 'DL Class')!,
      'right',
    );
    expect(r).not.toBeNull();
    expect(inside(r!, d)).toBe(true);
  });
});

describe('values read again under labels a reader found', { timeout: 600_000 }, () => {
  it('reads the code fields of dev-variant front 6 from under the labels PaddleOCR boxed', async () => {
    // The `stacked` front: its labels boxed as "ISSEX", "SCLASS", "IBEYES" (the field numbers
    // misread), the values under them run together or boxed with their neighbours ("ABNON").
    const g = await devVariantFrontPage(6);
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
