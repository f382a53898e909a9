/**
 * Where the screen check's document rules look (issue 20: genuine licence backs under the held-out
 * half's smallest, coarsest uploads were called screens). Synthetic frames: grey with seeded noise
 * and a colour pattern that swings between magenta and green (luma-neutral, as print's colour
 * fringes and JPEG's chroma artefacts are, not a screen's turning hue).
 */
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../../../server/analysis/raster.js';
import { detectRecapture } from '../../../../server/analysis/stages/recapture.js';

const W = 1000;
const H = 750;

/** A W×H frame with a magenta/green swing of `cycles` per 256 px (across, down) inside `box` [x0, y0, x1, y1]. */
function frame(cycles: readonly [number, number], box: readonly [number, number, number, number] = [0, 0, W, H]): Raster {
  // xorshift32, not an LCG: an LCG's low bits repeat in step with the rows, a faint colour beat over the whole
  // frame at (9, 6) cycles that the frame-wide rule (beat-consensus.ts) rightly counts (ratio 955 on a plain frame).
  let s = 0x2545f491;
  const noise = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 4294967296 - 0.5) * 8;
  };
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inside = x >= box[0] && y >= box[1] && x < box[2] && y < box[3];
      const a = inside ? 6 * Math.cos((2 * Math.PI * (cycles[0] * x + cycles[1] * y)) / 256) : 0;
      const i = (y * W + x) * 3;
      data[i] = 140 + a + noise();
      data[i + 1] = 140 - 2 * a + noise();
      data[i + 2] = 140 + a + noise();
    }
  }
  return { data, width: W, height: H, channels: 3 };
}

describe('detectRecapture: where the document rules look', { timeout: 60_000 }, () => {
  it('counts no beat past JPEG’s colour resolution (n/4 cycles per tile), where every 4:2:0 upload has chroma', async () => {
    // Over the whole frame at 120 cycles across, 6 down: the band where development backs at 720-800 px and
    // JPEG q 55-62 had 5-7 of 12 tiles agree (the decoder's image of their chroma about the chroma Nyquist).
    const out = await detectRecapture(frame([120, 6]), 'document');
    expect(out.documentScore.beat).toBeLessThan(3);
    expect(out.screen).toBe(false);
  });

  it('still calls a colour beat over the whole frame below n/4 a screen', async () => {
    const out = await detectRecapture(frame([20, 6]), 'document');
    expect(out.documentScore.beat).toBeGreaterThanOrEqual(7);
    expect(out.screen).toBe(true);
  });

  it('does not call a colour pattern in the middle of the frame alone a screen by its central tiles', async () => {
    // The five central tiles see it in both chroma planes (`both` far over its threshold), but only the
    // middle of the frame holds it, as a card's print or its PDF417 rows' fringes would: no beat shared by
    // most of the frame, no turning hue.
    const out = await detectRecapture(frame([20, 6], [280, 190, 720, 560]), 'document');
    expect(out.documentScore.both).toBeGreaterThan(1500);
    expect(out.documentScore.beat).toBeLessThan(7);
    expect(out.documentScore.hue.asymmetry).toBeLessThan(3);
    expect(out.screen).toBe(false);
  });
});
