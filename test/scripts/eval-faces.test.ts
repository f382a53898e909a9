import { describe, expect, it } from 'vitest';
import type { DetectedFace } from '../../server/analysis/stages/face.js';
import { matchPortrait } from '../../server/analysis/stages/selfie.js';
import { bandRates } from '../../scripts/eval/face-metrics.js';
import { hasSecondFace, scorePairs, sentCapture, turnAsked } from '../../scripts/eval/faces.js';

describe('face evaluation arithmetic', () => {
  it('pairs every portrait with every selfie: same face genuine, any other face impostor', () => {
    const portraits = [
      { face: 0, embedding: [1, 0] },
      { face: 1, embedding: [0, 1] },
    ];
    const selfies = [
      { face: 0, kind: 'plain', embedding: [1, 0] },
      { face: 0, kind: 'blurred', embedding: [1, 0] },
      { face: 1, kind: 'plain', embedding: [0, 1] },
      { face: 2, kind: 'plain', embedding: [1, 1] },
    ];
    const s = scorePairs(portraits, selfies, (selfie, p) => matchPortrait(selfie, p.embedding, p.quality));
    // Portrait 0: two genuine, two impostor; portrait 1: one genuine, three impostor.
    expect(s.genuine).toHaveLength(3);
    expect(s.impostor).toHaveLength(5);
    expect(s.genuine.every((x) => x > 0.999)).toBe(true);
    expect(s.impostor.map((x) => Number(x.toFixed(3))).sort()).toEqual([0, 0, 0, 0.707, 0.707]);
    expect(s.genuineByKind['plain']).toHaveLength(2);
    expect(s.genuineByKind['blurred']).toHaveLength(1);
    expect(s.impostorByKind['plain']).toHaveLength(4);
    expect(s.impostorByKind['blurred']).toHaveLength(1);
    // Each pair keeps its portrait and the band the engine gives it.
    expect(s.genuinePortrait).toEqual([0, 0, 1]);
    expect(s.genuineBands).toEqual(['match', 'match', 'match']);
    // [1, 1] against [1, 0] or [0, 1] scores 0.707: above the match threshold; the rest 0, rejected.
    expect([...s.impostorBands].sort()).toEqual(['different', 'different', 'different', 'match', 'match']);
  });

  it('splits pairs into accepted, reviewed and rejected at the two thresholds', () => {
    const genuine = [0.9, 0.7, 0.66, 0.6, 0.5];
    const impostor = [0.1, 0.2, 0.58, 0.61, 0.66, 0.3];
    const b = bandRates(genuine, impostor, 0.6, 0.66);
    expect(b.genuineAccepted).toMatchObject({ k: 3, n: 5 });
    expect(b.genuineReviewed).toMatchObject({ k: 1, n: 5 });
    expect(b.genuineRejected).toMatchObject({ k: 1, n: 5 });
    expect(b.impostorAccepted).toMatchObject({ k: 1, n: 6 });
    expect(b.impostorReviewed).toMatchObject({ k: 1, n: 6 });
    expect(b.impostorRejected).toMatchObject({ k: 4, n: 6 });
    // Without a band (review = match) nothing is reviewed.
    expect(bandRates(genuine, impostor, 0.66, 0.66).genuineReviewed.k).toBe(0);
  });

  it('counts a second face as the selfie decision does: at least a quarter of the first', () => {
    const face = (w: number): DetectedFace => ({ box: [0, 0, w, w], score: 1, emotions: {}, turn: 0 });
    expect(hasSecondFace([face(100)])).toBe(false);
    expect(hasSecondFace([face(100), face(40)])).toBe(false);
    expect(hasSecondFace([face(100), face(60)])).toBe(true);
    expect(hasSecondFace([])).toBe(false);
  });

  it('sends what the widget sends: the straight look’s held frame alone, which the service takes as the selfie', () => {
    const frames = [
      { id: 'look 1', challenge: 'neutral' },
      { id: 'look 2', challenge: 'neutral' },
      { id: 'look held', challenge: 'neutral' },
      { id: 'flash', challenge: 'flash' },
      { id: 'turn', challenge: 'turn' },
    ];
    const live = sentCapture('bona-fide', frames);
    expect(live.selfie.id).toBe('look held');
    expect(live.frames.map((f) => f.id)).toEqual(['look held', 'flash', 'turn']);
    expect(sentCapture('screen', frames).frames).toHaveLength(3);
    // Frames injected through the API: every straight frame the attacker made; the selfie is still the last.
    const print = sentCapture('print', frames);
    expect(print.selfie.id).toBe('look held');
    expect(print.frames).toHaveLength(5);
  });

  it('asks for the turn the frames make, judged on the last turn frame with a face', () => {
    // Straight at 0.16 (a face looking a little aside), turning towards positive, the last two frames lost near profile.
    expect(turnAsked(0.16, [0.3, 0.36, undefined, undefined])).toBe('turn_left');
    expect(turnAsked(0.16, [0.3, 0.36, 0.41, 0.45])).toBe('turn_left');
    expect(turnAsked(-0.05, [-0.2, -0.3, undefined])).toBe('turn_right');
    // No face in any turn frame: nothing to go by but the straight look.
    expect(turnAsked(0.1, [undefined, undefined])).toBe('turn_right');
  });
});
