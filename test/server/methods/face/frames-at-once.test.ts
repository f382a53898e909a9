/**
 * The same face frame sent twice at the same moment, as an attacker (or a flaky network) would:
 * one row per step and frame index is kept, its file is on disk and no other is, nobody gets a
 * 500, and the submitted job names files that exist. Both stores (the PostgreSQL pass reruns it).
 */
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANALYSIS_QUEUE, type AnalysisJob } from '../../../../server/domain/analysis-jobs.js';
import type { FaceChallenge, FaceEvidence, FaceMethodKey } from '../../../../src/api/contract.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { atOnce, storedUploads } from '../../../helpers/stored-uploads.js';
import { sessionFor } from '../../session/fixtures.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

const image = (background: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .jpeg()
    .toBuffer();
const evidence = (t: number): string =>
  JSON.stringify({ box: { x: 0.3, y: 0.2, width: 0.4, height: 0.5 }, keypoints: [{ x: 0.4, y: 0.4 }], score: 0.95, yaw: 0, t } satisfies FaceEvidence);

function send(session: SessionClient, key: FaceMethodKey, c: FaceChallenge, step: number, frame: number, t: number, bytes: Buffer) {
  return () =>
    session.uploadFaceFrame(
      key,
      { challenge_id: c.challenge_id, step_index: String(step), step: c.steps[step]!, frame_index: String(frame), evidence: evidence(t) },
      new Blob([new Uint8Array(bytes)]),
    );
}

/** Each stored frame's place, and whether the files on disk are exactly the rows' files. */
async function stored(id: number) {
  const { rows, files } = await storedUploads(server, id);
  return {
    places: rows.map((r) => `${r.step_index}/${r.frame_index ?? 0}`).sort(),
    filesMatchRows: JSON.stringify(files) === JSON.stringify(rows.map((r) => r.blob_key).sort()),
  };
}

describe('face frames sent twice at once', () => {
  it.each([
    ['selfie', 22],
    ['liveness', 20],
  ] as const)('%s: the same frame twice at once keeps one row and its file', async (key, methodId) => {
    const { session, id } = await sessionFor(server, [methodId]);
    const c = await session.faceChallenge(key);
    const bytes = await image('#998877');
    for (let round = 0; round < 3; round++) {
      expect(await atOnce([send(session, key, c, 0, 0, 100, bytes), send(session, key, c, 0, 0, 100, bytes)])).toEqual(['200', '200']);
    }
    expect(await stored(id)).toEqual({ places: ['0/0'], filesMatchRows: true });
  });

  it('liveness: two different frames with the same index at once: one is kept, with its own file', async () => {
    const { session, id } = await sessionFor(server, [20]);
    const c = await session.faceChallenge('liveness');
    await send(session, 'liveness', c, 0, 0, 100, await image('#998877'))();
    const [a, b] = await Promise.all([image('#887766'), image('#776655')]);
    expect(await atOnce([send(session, 'liveness', c, 0, 1, 200, a), send(session, 'liveness', c, 0, 1, 210, b)])).toEqual(['200', '200']);
    expect(await stored(id)).toEqual({ places: ['0/0', '0/1'], filesMatchRows: true });
    // The kept frame is one of the two sent, file and row alike.
    const kept = (await storedUploads(server, id)).rows.find((r) => r.frame_index === 1)!;
    const file = await server.verity.ctx.blobs.get(kept.blob_key);
    expect([a, b].some((bytes) => file?.bytes.equals(bytes))).toBe(true);
  });

  it('selfie: the submit and a retaken frame at once: the job names files that exist', async () => {
    // The submit is sent a little after the retake (it has less to do), at several offsets, so
    // that it lands while the retake is being checked and stored.
    const big = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#887766' } })
      .jpeg()
      .toBuffer();
    for (const delayMs of [0, 5, 10, 20, 40]) {
      const { session, id } = await sessionFor(server, [22]);
      const c = await session.faceChallenge('selfie');
      await send(session, 'selfie', c, 0, 0, 100, await image('#998877'))();
      const later = () => new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => session.submitFace('selfie', c.challenge_id));
      const outcomes = await atOnce([send(session, 'selfie', c, 0, 0, 150, big), later]);
      // The submit always passes; the retake came first (and is in the job) or finds the challenge used.
      expect(outcomes[1]).toBe('200');
      expect(['200', '410 session_challenge_expired', '409 session_method_state_error']).toContain(outcomes[0]);
      const rows = await server.verity.ctx.db
        .selectFrom('jobs')
        .select('payload')
        .where('queue', '=', ANALYSIS_QUEUE)
        .where('payload', 'like', `%"userId":${id},%`)
        .execute();
      expect(rows).toHaveLength(1);
      const job = JSON.parse(rows[0]!.payload) as AnalysisJob;
      if (job.kind !== 'face') throw new Error('no face job');
      for (const frame of job.frames) expect(await server.verity.ctx.blobs.get(frame.blobKey), `the job's frame, submit ${delayMs} ms later`).toBeDefined();
      expect((await stored(id)).filesMatchRows).toBe(true);
    }
  });
});
