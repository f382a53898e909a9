import { describe, expect, it } from 'vitest';
import type { DetectedFace } from '../../../../server/analysis/stages/face.js';
import { decideSelfie, SelfieReason, type LivenessFrame } from '../../../../server/analysis/stages/selfie.js';

/** A face whose descriptor is at `deg` degrees from the selfie's (cosine similarity cos(deg)) in the plane `plane`. */
const faceAt = (deg: number, plane: 'xy' | 'z' = 'xy'): DetectedFace => {
  const r = (deg * Math.PI) / 180;
  return { box: [100, 100, 200, 200], score: 0.9, emotions: {}, turn: 0, embedding: plane === 'z' ? [0, 0, 1] : [Math.cos(r), Math.sin(r), 0] };
};
const frame = (face: DetectedFace, challenge: LivenessFrame['challenge'], step: number): LivenessFrame => ({ challenge, faces: [face], step });

describe('the same person across a move’s frames', () => {
  const selfie = faceAt(0);
  const neutral = frame(selfie, 'neutral', 0);

  it('follows a head turning away from the selfie frame by frame', async () => {
    // Similarity to the selfie 0.77, 0.6, 0.47 (a head turned 30° and more): each close to the one before.
    const turn = [40, 53, 62].map((d) => frame(faceAt(d), 'turn_left', 1));
    const out = await decideSelfie({ selfie: [selfie], frames: [neutral, ...turn] });
    expect(out.reasons).not.toContain(SelfieReason.DifferentPersonAcrossFrames);
  });

  it('still refuses another person swapped in mid-move, and one far from the selfie at the move’s start', async () => {
    const swapped = [frame(faceAt(20), 'turn_left', 1), frame(faceAt(0, 'z'), 'turn_left', 1), frame(faceAt(0, 'z'), 'turn_left', 1)];
    const a = await decideSelfie({ selfie: [selfie], frames: [neutral, ...swapped] });
    expect(a.decision).toBe('rejected');
    expect(a.reasons).toContain(SelfieReason.DifferentPersonAcrossFrames);
    // The first frame of a move has nothing before it in the move: the selfie alone decides.
    const b = await decideSelfie({ selfie: [selfie], frames: [neutral, frame(faceAt(62), 'turn_left', 1)] });
    expect(b.reasons).toContain(SelfieReason.DifferentPersonAcrossFrames);
  });
});
