/**
 * The hue beat (issue 20): a screen's R, G, B sub-pixels sampled at a drifting phase turn the hue
 * steadily across the frame, which leaves power at +f only in the complex chroma R + ωG + ω²B;
 * a pattern that swings between two hues (print) leaves it at +f and −f alike.
 */
import { describe, expect, it } from 'vitest';
import { HUE_BEAT_SETTINGS, isHueBeatScreen, scoreHueBeat } from '../../../../server/analysis/stages/hue-beat.js';
import { chromaSpectra, powerSpectra } from '../../../../server/analysis/stages/spectrum.js';

const n = 256;

/** The chroma planes (R−G, B−G) of an n×n tile whose colour at (x, y) is `rgb(x, y)`, with a little seeded noise. */
function planes(rgb: (x: number, y: number) => [number, number, number]): { rg: Float64Array; bg: Float64Array } {
  let s = 7;
  const noise = (): number => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 6;
  const rg = new Float64Array(n * n);
  const bg = new Float64Array(n * n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const [r, g, b] = rgb(x, y);
      const gn = g + noise();
      rg[y * n + x] = r + noise() - gn;
      bg[y * n + x] = b + noise() - gn;
    }
  }
  return { rg, bg };
}

describe('hue beat', () => {
  it('gives the chroma planes the same spectra as powerSpectra', () => {
    const { rg, bg } = planes((x, y) => [128 + 40 * Math.sin(x / 3 + y / 7), 120, 100 + 30 * Math.cos(y / 5)]);
    const [a, b] = powerSpectra(rg, bg, n);
    const c = chromaSpectra(rg, bg, n);
    for (const i of [0, 1, 17, 300, 4097, n * n - 1]) {
      expect(c.rg[i]).toBeCloseTo(a[i]!, 6);
      expect(c.bg[i]).toBeCloseTo(b[i]!, 6);
    }
  });

  it('calls a hue that turns across the tile a screen beat, one-sided', () => {
    // The R, G, B gains of a triad sampled at a phase drifting 14 cycles across and 5 down the tile.
    const phase = (x: number, y: number): number => (2 * Math.PI * (14 * x + 5 * y)) / n;
    const { rg, bg } = planes((x, y) => [0, 1, 2].map((c) => 150 + 12 * Math.cos(phase(x, y) - (2 * Math.PI * c) / 3)) as [number, number, number]);
    const h = scoreHueBeat(chromaSpectra(rg, bg, n).hue, n);
    // Within a bin: the window spreads the peak to its neighbours, scored against their own rings.
    expect(Math.abs(Math.abs(h.at[0]) - 14)).toBeLessThanOrEqual(1);
    expect(Math.abs(Math.abs(h.at[1]) - 5)).toBeLessThanOrEqual(1);
    expect(h.peak).toBeGreaterThan(HUE_BEAT_SETTINGS.minPeak);
    expect(h.asymmetry).toBeGreaterThan(100);
    expect(isHueBeatScreen(h)).toBe(true);
  });

  it('does not call a pattern swinging between two hues (red and cyan print) a screen', () => {
    // Just as strong and periodic, at the same frequency: a swing, not a turn.
    const swing = (x: number, y: number): number => Math.cos((2 * Math.PI * (14 * x + 5 * y)) / n);
    const { rg, bg } = planes((x, y) => [150 + 12 * swing(x, y), 150 - 12 * swing(x, y), 150 - 12 * swing(x, y)]);
    const h = scoreHueBeat(chromaSpectra(rg, bg, n).hue, n);
    expect(h.peak).toBeGreaterThan(HUE_BEAT_SETTINGS.minPeak);
    expect(h.asymmetry).toBeLessThan(2);
    expect(isHueBeatScreen(h)).toBe(false);
  });
});
