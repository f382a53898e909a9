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

const W = 1000;
const H = 750;

/** A W×H frame with a red swing of `cycles` per 256 px (across, down) inside `box` [x0, y0, x1, y1]. */
function frame(cycles: readonly [number, number], box: readonly [number, number, number, number] = [0, 0, W, H]): Raster {
  // xorshift32: an LCG's low bits repeat with a period that lines up with the rows into a beat of its own.
  let s = 0x9e3779b9;
  const noise = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 4294967296 - 0.5) * 10;
  };
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inside = x >= box[0] && y >= box[1] && x < box[2] && y < box[3];
      const a = inside ? 2 * Math.cos((2 * Math.PI * (cycles[0] * x + cycles[1] * y)) / 256) : 0;
      const i = (y * W + x) * 3;
      data[i] = 140 + a + noise();
      data[i + 1] = 140 + noise();
      data[i + 2] = 140 + noise();
    }
  }
  return { data, width: W, height: H, channels: 3 };
}

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
