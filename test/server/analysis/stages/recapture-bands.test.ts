/**
 * Where the screen check's document rules look (issue 20: genuine licence backs under the held-out
 * half's smallest, coarsest uploads were called screens). Synthetic frames: grey with seeded noise
 * and a colour pattern that swings between magenta and green (luma-neutral, as print's colour
 * fringes and JPEG's chroma artefacts are, not a screen's turning hue).
 */
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../../../server/analysis/raster.js';
import { detectRecapture } from '../../../../server/analysis/stages/recapture.js';
import { swingFrame } from './chroma-swing.js';

/** A frame with a magenta/green swing of `cycles` per 256 px (across, down) inside `box`. */
const frame = (cycles: readonly [number, number], box?: readonly [number, number, number, number]): Raster =>
  swingFrame({ cycles, box, weights: [6, -12, 6], noise: 8, seed: 0x2545f491 });

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
