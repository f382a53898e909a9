import { describe, expect, it } from 'vitest';
import type { DetectedFace } from '../../../../server/analysis/stages/face.js';
import type { PortraitQuality } from '../../../../server/analysis/stages/portrait.js';
import {
  decideSelfie,
  SELFIE_MATCH_THRESHOLD,
  SELFIE_REVIEW_THRESHOLD,
  SURE_PORTRAIT_REVIEW_THRESHOLD,
  UNSURE_PORTRAIT_REVIEW_THRESHOLD,
} from '../../../../server/analysis/stages/selfie.js';
import { decideVideo, type VideoEvidence } from '../../../../server/methods/video/decide.js';

/** A unit descriptor with cosine `c` to the portrait's [1, 0]. */
const at = (c: number): number[] => [c, Math.sqrt(1 - c * c)];
const faceWith = (embedding: number[]): DetectedFace => ({ box: [0, 0, 100, 100], score: 1, emotions: {}, turn: 0, real: 0.9, embedding });
const portrait = at(1);
/** Eight straight frames of one face whose own descriptor is `own`. */
const evidence = (own: number[], neutralMatch?: number[]): VideoEvidence => ({
  moves: [],
  frames: Array.from({ length: 8 }, (_, t) => ({ t, faces: [faceWith(own)] })),
  reference: portrait,
  ...(neutralMatch ? { neutralMatch } : {}),
  requireReference: true,
  screenReplay: false,
});

describe('video face match', () => {
  it('matches the straight look’s portrait-matching descriptor, not the frame’s own', () => {
    const r = decideVideo(evidence(at(0.3), at(SELFIE_MATCH_THRESHOLD + 0.01)));
    expect(r.face_match).toBe('match');
    expect(r.face_match_score).toBeCloseTo(SELFIE_MATCH_THRESHOLD + 0.01, 6);
    expect(r.reasons).not.toContain('VIDEO_FACE_MISMATCH');
  });

  it('uses the selfie’s bands: uncertain goes to review, different people are rejected', () => {
    const middle = (SELFIE_MATCH_THRESHOLD + SELFIE_REVIEW_THRESHOLD) / 2;
    expect(decideVideo(evidence(at(0.99), at(middle)))).toMatchObject({ face_match: 'uncertain' });
    expect(decideVideo(evidence(at(0.99), at(middle))).reasons).toContain('VIDEO_FACE_MATCH_UNCERTAIN');
    const other = decideVideo(evidence(at(0.99), at(SELFIE_REVIEW_THRESHOLD - 0.01)));
    expect(other).toMatchObject({ face_match: 'different', decision: 'rejected' });
    expect(other.reasons).toContain('VIDEO_FACE_MISMATCH');
  });

  it('scores one descriptor against one portrait as the selfie method does', async () => {
    for (const c of [0.3, SELFIE_REVIEW_THRESHOLD, 0.64, SELFIE_MATCH_THRESHOLD, 0.9]) {
      const selfie = await decideSelfie({ selfie: [faceWith(at(0.1))], reference: faceWith(portrait), selfieAtPortraitScale: at(c) });
      const video = decideVideo(evidence(at(0.1), at(c)));
      expect(video.face_match_score).toBeCloseTo(selfie.similarity!, 9);
      expect(video.face_match === 'match').toBe(selfie.selfie_check);
    }
  });

  it('takes the band from the portrait’s stored quality, as the selfie method does', async () => {
    const sure: PortraitQuality = { detector: 0.99, crop: 0.98, side: 120, brightness: 90, contrast: 40 };
    const unsure: PortraitQuality = { detector: 0.61, crop: 0, side: 134, brightness: 26, contrast: 13 };
    // Between the two edges: another person against a portrait the detector is sure of, a reviewer's call against a dim one.
    const c = (SURE_PORTRAIT_REVIEW_THRESHOLD + UNSURE_PORTRAIT_REVIEW_THRESHOLD) / 2;
    for (const [quality, band, reason, decision] of [
      [sure, 'different', 'VIDEO_FACE_MISMATCH', 'rejected'],
      [unsure, 'uncertain', 'VIDEO_FACE_MATCH_UNCERTAIN', 'review'],
    ] as const) {
      const video = decideVideo({ ...evidence(at(0.1), at(c)), referenceQuality: quality });
      expect(video.face_match).toBe(band);
      expect(video.reasons).toContain(reason);
      const selfie = await decideSelfie({ selfie: [faceWith(at(0.1))], reference: { ...faceWith(portrait), portrait: quality }, selfieAtPortraitScale: at(c) });
      expect(selfie.decision).toBe(decision);
    }
  });

  it('falls back to the first face’s own descriptor when no matching descriptor was taken', () => {
    expect(decideVideo(evidence(at(0.3)))).toMatchObject({ face_match: 'different' });
  });
});
