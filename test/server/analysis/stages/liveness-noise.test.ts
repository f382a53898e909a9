import { describe, expect, it } from 'vitest';
import type { DetectedFace } from '../../../../server/analysis/stages/face.js';
import { planarityResidual, stillNoise } from '../../../../server/analysis/stages/liveness.js';
import { decideSelfie, type LivenessFrame } from '../../../../server/analysis/stages/selfie.js';

/** A deterministic pseudo-random stream in [-1, 1). */
function jitter(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  };
}

/** A 468-point face mesh (a grid over the face), each landmark moved by up to `noise` px, turned by `shift` px of depth parallax. */
function faceWith(noise: number, seed: number, parallax = 0): DetectedFace {
  const r = jitter(seed);
  const mesh = Array.from({ length: 468 }, (_, i): [number, number] => {
    const gx = i % 22;
    const gy = Math.floor(i / 22);
    // Parallax: points near the grid's middle (the nose) move against the rest, as on a head.
    const bump = Math.exp(-((gx - 11) ** 2 + (gy - 10) ** 2) / 20);
    return [100 + gx * 10 + parallax * bump + noise * r(), 100 + gy * 10 + noise * r()];
  });
  return { box: [100, 100, 220, 220], score: 0.9, emotions: {}, turn: 0, mesh };
}

describe('the still frames’ landmark noise beside a turn’s planarity', () => {
  it('is the median residual from the straight face to the flash’s still faces, and grows with the landmarks’ noise', () => {
    const straight = faceWith(0.5, 1);
    const calm = stillNoise(
      straight,
      [2, 3, 4, 5].map((s) => faceWith(0.5, s)),
    )!;
    const shaky = stillNoise(
      straight,
      [2, 3, 4, 5].map((s) => faceWith(3, s)),
    )!;
    expect(calm).toBeGreaterThan(0);
    expect(shaky).toBeGreaterThan(3 * calm);
    // The median of the four pairs' residuals: between the second and third smallest.
    const each = [2, 3, 4, 5].map((s) => planarityResidual(straight, faceWith(0.5, s))!).sort((a, b) => a - b);
    expect(calm).toBeCloseTo((each[1]! + each[2]!) / 2, 10);
    // Fewer than three still faces with a mesh say nothing.
    expect(stillNoise(straight, [faceWith(0.5, 2), faceWith(0.5, 3), { ...faceWith(0.5, 4), mesh: undefined }])).toBeNull();
  });

  it('is reported on the turn’s outcome, from the flash frames, and decides nothing', async () => {
    const straight = faceWith(0.5, 1);
    const frames: LivenessFrame[] = [
      { challenge: 'neutral', faces: [straight], step: 0 },
      ...[2, 3, 4, 5, 6].map((s): LivenessFrame => ({ challenge: 'flash', faces: [faceWith(0.5, s)], step: 1 })),
      ...[10, 25, 40].map((p, i): LivenessFrame => ({ challenge: 'turn_left', faces: [{ ...faceWith(0.5, 20 + i, p), turn: p / 100 }], step: 2 })),
    ];
    const out = await decideSelfie({ selfie: [straight], frames, activeLiveness: true });
    const turn = out.challenges.find((c) => c.challenge === 'turn_left')!;
    expect(turn.noise).toBeCloseTo(
      stillNoise(
        straight,
        [2, 3, 4, 5, 6].map((s) => faceWith(0.5, s)),
      )!,
      10,
    );
    expect(turn.planarity!).toBeGreaterThan(turn.noise!);
  });
});
