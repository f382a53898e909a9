/**
 * The Video method end to end on the server with the real analysis engine: generated head turns
 * of the demo faces (fixtures/hard/head-turn.ts) sampled as the widget samples a recording,
 * through the session routes and the durable analysis queue to the verification's status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument, analyseFrames, analyseSelfie } from '../../../../server/analysis/index.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { detectFaces } from '../../../../server/analysis/stages/face.js';
import { SELFIE_MATCH_THRESHOLD, SELFIE_REVIEW_THRESHOLD } from '../../../../server/analysis/stages/selfie.js';
import { VerificationStatus } from '../../../../server/domain/catalogue.js';
import type { VideoMove } from '../../../../src/api/contract.js';
import { portrait } from '../../../fixtures/faces.js';
import { emptyFrames, headFrame, movingFrames, twoPeopleFrames } from '../../../fixtures/video.js';
import { insertPortraitJob } from '../../../helpers/document-jobs.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { sendCapture, videoRow, videoUser } from './helpers.js';

/** The demo face whose generated turns read clearly both ways (turn measure +0.26 / −0.55 at ±38°). */
const FACE = 3;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ analysis: { analyseDocument, analyseSelfie, analyseFrames } });
});
afterAll(async () => {
  await server.close();
});

/** Records `frames` for a new challenge (made by `framesFor` from its moves), submits, and waits for the analysis. */
async function record(framesFor: (moves: readonly VideoMove[]) => Promise<Buffer[]>, options: { reference?: number[]; exact?: boolean } = {}) {
  const { session, id } = await videoUser(server);
  if (options.reference) await givePortrait(id, options.reference);
  const challenge = await session.videoChallenge();
  await sendCapture(server, session, challenge, await framesFor(challenge.moves), options.exact);
  expect((await session.submitVideo(challenge.challenge_id)).method.status).toBe('processing');
  await server.verity.ctx.queue.whenIdle();
  return { ...(await videoRow(server, id)), challenge, id };
}

/** A document portrait on file for the user (as a document analysis leaves it). */
async function givePortrait(userId: number, embedding: number[]): Promise<void> {
  const at = server.clock.now().toISOString();
  await insertPortraitJob(server.verity.ctx.db, { userId, docId: `doc_video_${userId}`, embedding, at });
}

async function embeddingOf(bytes: Buffer): Promise<number[]> {
  const face = (await detectFaces((await prepareInput(bytes)).raster))[0];
  if (!face?.embedding) throw new Error('no face in the reference');
  return [...face.embedding];
}

const reversed = (moves: readonly VideoMove[]): VideoMove[] => moves.map((m) => (m === 'turn_left' ? 'turn_right' : 'turn_left'));

describe('video analysis', { timeout: 240_000 }, () => {
  it('completes a video of one face making the moves asked, and says what it saw', async () => {
    const r = await record((moves) => movingFrames(FACE, moves));
    expect(r.attributes).toMatchObject({
      decision: 'complete',
      reasons: [],
      challenge: r.challenge.moves,
      moves_seen: r.challenge.moves,
      moved_as_asked: true,
    });
    expect(r.attributes).toMatchObject({ faces_seen: 1, face_match: 'no_reference', face_match_score: null });
    expect(r.attributes['frames_analysed']).toBe(r.attributes['frames_with_face']);
    expect(r.status).toBe(VerificationStatus.complete);
  });

  it('matches the face to the document portrait of the same person, and rejects another person', async () => {
    const same = await record((moves) => movingFrames(FACE, moves), { reference: await embeddingOf(await portrait(FACE, { width: 360 })) });
    expect(same.attributes).toMatchObject({ face_match: 'match', decision: 'complete' });
    expect(same.attributes['face_match_score'] as number).toBeGreaterThanOrEqual(SELFIE_MATCH_THRESHOLD);

    const other = await record((moves) => movingFrames(FACE, moves), { reference: await embeddingOf(await portrait(18, { width: 360 })) });
    expect(other.status).toBe(VerificationStatus.rejected);
    expect(other.attributes).toMatchObject({ face_match: 'different', moved_as_asked: true });
    expect(other.attributes['reasons']).toContain('VIDEO_FACE_MISMATCH');
    expect(other.attributes['face_match_score'] as number).toBeLessThan(SELFIE_REVIEW_THRESHOLD);
  });

  it('scores the straight look against the portrait exactly as the selfie method scores it as a selfie', async () => {
    const reference = await embeddingOf(await portrait(FACE, { width: 360 }));
    const r = await record((moves) => movingFrames(FACE, moves), { reference, exact: true });
    const straight = (await movingFrames(FACE, r.challenge.moves))[0]!;
    const asSelfie = await analyseSelfie({ selfie: straight }, { referenceEmbedding: reference });
    expect(r.attributes['face_match']).toBe('match');
    expect(r.attributes['face_match_score'] as number).toBeCloseTo(asSelfie.similarity!, 3);
  });

  it('rejects a video with nobody in it', async () => {
    const r = await record(() => emptyFrames());
    expect(r.status).toBe(VerificationStatus.rejected);
    expect(r.attributes).toMatchObject({ reasons: ['VIDEO_NO_FACE'], frames_with_face: 0, faces_seen: 0, moved_as_asked: false });
  });

  it('rejects a video with a second person in it', async () => {
    const r = await record((moves) => twoPeopleFrames(FACE, 2, moves));
    expect(r.status).toBe(VerificationStatus.rejected);
    expect(r.attributes['reasons']).toContain('VIDEO_MULTIPLE_FACES');
    expect(r.attributes['faces_seen']).toBe(2);
  });

  it('rejects a head that did not move', async () => {
    const r = await record(() => Promise.all(Array.from({ length: 8 }, () => headFrame(FACE, 0))));
    expect(r.status).toBe(VerificationStatus.rejected);
    expect(r.attributes).toMatchObject({ reasons: ['VIDEO_MOVE_NOT_PERFORMED'], moves_seen: [], moved_as_asked: false });
  });

  it('rejects turns made the other way round', async () => {
    const r = await record((moves) => movingFrames(FACE, reversed(moves)));
    expect(r.status).toBe(VerificationStatus.rejected);
    expect(r.attributes).toMatchObject({ reasons: ['VIDEO_WRONG_MOVE'], moved_as_asked: false, moves_seen: reversed(r.challenge.moves) });
  });
});
