/**
 * OCR-B templates drawn from the font's outlines (mrz-font.ts, issue 20): each MRZ character at
 * a zone's pitch, and their normalised correlation with a plane.
 */
import { describe, expect, it } from 'vitest';
import { CorrelationPlane, drawGlyphs, templateSet } from '../../../../server/analysis/stages/mrz-font.js';
import type { GreyPlane } from '../../../../server/analysis/raster.js';

/** A plane holding `t`'s pixels (before normalising) at (`x`, `y`) on white paper. */
function planeWith(t: { w: number; h: number; v: Float64Array }, x: number, y: number): GreyPlane {
  const width = t.w + 20;
  const height = t.h + 20;
  const data = new Uint8Array(width * height).fill(255);
  for (let yy = 0; yy < t.h; yy++) for (let xx = 0; xx < t.w; xx++) data[(y + yy) * width + x + xx] = Math.round(t.v[yy * t.w + xx]!);
  return { data, width, height };
}

describe('OCR-B glyph templates', { timeout: 60_000 }, () => {
  it('draws every MRZ character at the pitch asked, with ink, in four horizontal and two vertical phases', async () => {
    const drawn = await drawGlyphs('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<', 14);
    expect(drawn.size).toBe(37);
    for (const [c, phases] of drawn) {
      expect(phases, c).toHaveLength(8);
      expect(phases[0]!.w).toBe(14);
      const ink = [...phases[0]!.v].filter((v) => v < 128).length;
      expect(ink, c).toBeGreaterThan(5);
    }
    // Distinct glyphs, not one shape drawn many times.
    const h = drawn.get('H')![0]!.v;
    const r = drawn.get('R')![0]!.v;
    expect(h.some((v, k) => Math.abs(v - r[k]!) > 100)).toBe(true);
  });

  it('finds a glyph where it is printed, and tells H from R there', async () => {
    const drawn = await drawGlyphs('HR', 16);
    const plane = new CorrelationPlane(planeWith(drawn.get('H')![0]!, 10, 10));
    const set = templateSet(drawn, 0.6);
    const cx = 10 + 8;
    const cy = 10 + drawn.get('H')![0]!.h / 2;
    const h = plane.best(set.get('H')!, cx + 2, cy - 1, 3, 2);
    const r = plane.best(set.get('R')!, cx + 2, cy - 1, 3, 2);
    expect(h.score).toBeGreaterThan(0.97);
    expect(Math.abs(h.x - cx)).toBeLessThanOrEqual(1);
    expect(r.score).toBeLessThan(h.score - 0.1);
  });

  it('gives no correlation off the plane or on blank paper', async () => {
    const set = templateSet(await drawGlyphs('A', 12), 1);
    const t = set.get('A')![0]!;
    const blank = new CorrelationPlane({ data: new Uint8Array(60 * 60).fill(255), width: 60, height: 60 });
    expect(blank.at(t, 5, 5)).toBe(-1);
    expect(blank.at(t, 55, 5)).toBe(-1);
  });
});
