import { describe, expect, it } from 'vitest';
import type { DetectedFace } from '../../../../server/analysis/stages/face.js';
import { decideSelfie, faceMatchBand, SELFIE_MATCH_THRESHOLD, SELFIE_REVIEW_THRESHOLD } from '../../../../server/analysis/stages/selfie.js';

/** A face whose descriptor has cosine `c` with the reference's [1, 0]. */
const faceAt = (c: number): DetectedFace => ({ box: [0, 0, 100, 100], score: 1, emotions: {}, turn: 0, embedding: [c, Math.sqrt(1 - c * c)] });
const reference = faceAt(1);

describe('face match decision bands', () => {
  it('has a review band between rejecting and accepting', () => {
    expect(SELFIE_REVIEW_THRESHOLD).toBeLessThan(SELFIE_MATCH_THRESHOLD);
    expect(faceMatchBand(SELFIE_MATCH_THRESHOLD)).toBe('match');
    expect(faceMatchBand(0.99)).toBe('match');
    expect(faceMatchBand(SELFIE_MATCH_THRESHOLD - 1e-6)).toBe('uncertain');
    expect(faceMatchBand(SELFIE_REVIEW_THRESHOLD)).toBe('uncertain');
    expect(faceMatchBand(SELFIE_REVIEW_THRESHOLD - 1e-6)).toBe('different');
    expect(faceMatchBand(0)).toBe('different');
  });

  it('completes a selfie at or above the match threshold', async () => {
    const r = await decideSelfie({ selfie: [faceAt(SELFIE_MATCH_THRESHOLD + 0.001)], reference });
    expect(r.decision).toBe('complete');
    expect(r.selfie_check).toBe(true);
    expect(r.reasons).toEqual([]);
  });

  it('sends an uncertain match to review, not to rejection', async () => {
    const middle = (SELFIE_MATCH_THRESHOLD + SELFIE_REVIEW_THRESHOLD) / 2;
    const r = await decideSelfie({ selfie: [faceAt(middle)], reference });
    expect(r.decision).toBe('review');
    expect(r.reasons).toEqual(['FACE_MATCH_UNCERTAIN']);
    expect(r.selfie_check).toBe(false);
    expect(r.similarity).toBeCloseTo(middle, 6);
  });

  it('rejects clearly different people instead of reviewing them', async () => {
    const r = await decideSelfie({ selfie: [faceAt(SELFIE_REVIEW_THRESHOLD - 0.01)], reference });
    expect(r.decision).toBe('rejected');
    expect(r.reasons).toEqual(['FACE_MISMATCH']);
    expect(r.reasons).not.toContain('FACE_MATCH_UNCERTAIN');
  });

  it('still rejects an uncertain match when another check fails', async () => {
    // A spoof score below the floor rejects whatever the match says.
    const spoof = { ...faceAt((SELFIE_MATCH_THRESHOLD + SELFIE_REVIEW_THRESHOLD) / 2), real: 0.05 };
    const r = await decideSelfie({ selfie: [spoof], reference });
    expect(r.decision).toBe('rejected');
    expect(r.reasons).toEqual(expect.arrayContaining(['FACE_MATCH_UNCERTAIN', 'SPOOF_SUSPECTED']));
  });
});
