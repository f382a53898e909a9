/**
 * A screen's beat that most of the frame carries in one chroma plane (issue 20: development replay 21,
 * whose beat was under the per-tile threshold in most tiles and in one plane only). Synthetic frames:
 * grey with seeded noise and a faint red swing (R−G moves, B−G does not), as an unequal sub-pixel
 * layout leaves it; the rules of before need both planes, so none of them calls these screens.
 */
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../../../server/analysis/raster.js';
import { BEAT_CONSENSUS_SETTINGS, beatConsensus } from '../../../../server/analysis/stages/beat-consensus.js';
import { detectRecapture } from '../../../../server/analysis/stages/recapture.js';
import { swingFrame } from './chroma-swing.js';

/** A frame with a red swing of `cycles` per 256 px (across, down) inside `box`. */
const frame = (cycles: readonly [number, number], box?: readonly [number, number, number, number]): Raster =>
  swingFrame({ cycles, box, weights: [2, 0, 0], noise: 10, seed: 0x9e3779b9 });

describe('beatConsensus', () => {
  it('scores a frequency by the ratio the asked number of tiles reach there, in one plane', () => {
    const n = 64;
    const at = 6 * n + 6;
    const onAxis = 2 * n + 6;
    const scored = new Uint8Array(n * n).fill(1);
    // Twelve tiles: at (6, 6) cycles the red-green plane reads 12, 11, …, 1; blue-green 0 everywhere; a
    // stronger line at (6, 2), beside an axis, is left out.
    const maps = Array.from({ length: 12 }, (_, t) => {
      const rg = new Float64Array(n * n);
      rg[at] = 12 - t;
      rg[onAxis] = 100;
      return { rg, bg: new Float64Array(n * n) };
    });
    const out = beatConsensus(maps, scored, n, 9);
    expect(out.ratio).toBe(4);
    expect(out.plane).toBe('rg');
    expect(out.at).toEqual([6, 6]);
  });
});

describe('detectRecapture: a faint beat over the whole frame in one chroma plane', { timeout: 60_000 }, () => {
  it('calls it a screen, though no tile alone counts a beat', async () => {
    const out = await detectRecapture(frame([15, 9]), 'document');
    expect(out.documentScore.beat).toBeLessThan(3);
    expect(out.documentScore.consensus.ratio).toBeGreaterThanOrEqual(BEAT_CONSENSUS_SETTINGS.minRatio);
    // Within a bin: each tile's ratio is its 3x3 neighbourhood's strongest.
    const [fx, fy] = out.documentScore.consensus.at;
    expect(Math.max(Math.abs(fx - 15), Math.abs(fy - 9))).toBeLessThanOrEqual(1);
    expect(out.screen).toBe(true);
    expect(out.labels).toContain('moire_pattern');
  });

  it('does not call the same pattern a screen when only the middle of the frame holds it', async () => {
    // A card's print or its barcode's fringes: the central tiles, not 9 of the 12.
    const out = await detectRecapture(frame([15, 9], [250, 180, 750, 570]), 'document');
    expect(out.documentScore.consensus.ratio).toBeLessThan(BEAT_CONSENSUS_SETTINGS.minRatio);
    expect(out.screen).toBe(false);
  });

  it('does not count it from n/8 cycles per tile, where JPEG’s quantised colour leaves lines of its own', async () => {
    for (const cycles of [
      [45, 20],
      [120, 6],
    ] as const) {
      const out = await detectRecapture(frame(cycles), 'document');
      expect(out.documentScore.consensus.ratio).toBeLessThan(BEAT_CONSENSUS_SETTINGS.minRatio);
      expect(out.screen).toBe(false);
    }
  });
});
