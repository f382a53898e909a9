/**
 * The Video method's capture is bound to its challenge: a single-use nonce valid for 2 minutes,
 * frames in order and timed within it, a recording checked by content, no frame replayed from
 * another challenge, attempts limited atomically, and everything gone with the user.
 */
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANALYSIS_QUEUE, type AnalysisJob } from '../../../../server/domain/analysis-jobs.js';
import { sdb } from '../../../../server/session/tables.js';
import { vdb } from '../../../../server/methods/video/tables.js';
import { minimalWebm } from '../../../fixtures/video.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { failure } from '../../session/fixtures.js';
import { advance, sendCapture, videoUser } from './helpers.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

/** Eight small frames, different from each other and from every other call's. */
let made = 0;
const frames = (count = 8): Promise<Buffer[]> =>
  Promise.all(
    Array.from({ length: count }, () =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: { r: (made++ * 37) % 256, g: Math.floor(made / 7) % 256, b: 90 } } })
        .jpeg()
        .toBuffer(),
    ),
  );
const blob = (b: Buffer): Blob => new Blob([new Uint8Array(b)]);

async function analysisJobs(): Promise<AnalysisJob[]> {
  const rows = await server.verity.ctx.db.selectFrom('jobs').select('payload').where('queue', '=', ANALYSIS_QUEUE).execute();
  return rows.map((r) => JSON.parse(r.payload) as AnalysisJob);
}

describe('video capture bound to its challenge', () => {
  it('draws a random sequence of turns, and queues the analysis of a complete capture once', async () => {
    const { session } = await videoUser(server);
    const c = await session.videoChallenge();
    expect(c).toMatchObject({ min_frames: 8, max_frames: 12, min_duration_ms: 3000, max_duration_ms: 6000, attempt: 1, attempts_left: 2 });
    expect(c.moves.length).toBeGreaterThanOrEqual(2);
    expect(c.moves.every((m, i) => i === 0 || m !== c.moves[i - 1])).toBe(true);
    expect(Date.parse(c.expires_at) - server.clock.now().getTime()).toBe(2 * 60 * 1000);
    await sendCapture(server, session, c, await frames(), true);
    // Two submits at once: one job, the other finds the nonce used.
    const [a, b] = await Promise.allSettled([session.submitVideo(c.challenge_id), session.submitVideo(c.challenge_id)]);
    const answers = [a, b].map((r) => (r.status === 'fulfilled' ? r.value.method.status : (r.reason as { error_type: string }).error_type)).sort();
    // The loser finds the nonce used (410) or the method already processing (409).
    expect(answers[0]).toBe('processing');
    expect(['session_challenge_expired', 'session_method_state_error']).toContain(answers[1]);
    const jobs = await analysisJobs();
    expect(jobs).toHaveLength(1);
    const job = jobs[0]!;
    if (job.kind !== 'video') throw new Error('no video job');
    expect(job.moves).toEqual(c.moves);
    expect(job.frames.map((f) => f.t)).toEqual([300, 750, 1200, 1650, 2100, 2550, 3000, 3450]);
    expect(job.recording).toMatchObject({ mediaType: 'video/webm', durationMs: 3750 });
    // Used up: nothing more is taken for it.
    expect((await failure(session.submitVideo(c.challenge_id))).status).toBeGreaterThanOrEqual(409);
    expect(await analysisJobs()).toHaveLength(1);
  });

  it('refuses an expired challenge and a forged nonce', async () => {
    const { session } = await videoUser(server);
    const c = await session.videoChallenge();
    const [first] = await frames(1);
    expect((await failure(session.uploadVideoFrame({ challenge_id: 'vch_forged', index: '0', t: '0' }, blob(first!)))).error_type).toBe(
      'session_challenge_expired',
    );
    await session.uploadVideoFrame({ challenge_id: c.challenge_id, index: '0', t: '0' }, blob(first!));
    advance(server, 2 * 60 * 1000 + 1);
    const late = await failure(session.uploadVideoFrame({ challenge_id: c.challenge_id, index: '1', t: '500' }, blob((await frames(1))[0]!)));
    expect([late.status, late.error_type]).toEqual([410, 'session_challenge_expired']);
    expect((await failure(session.submitVideo(c.challenge_id))).status).toBe(410);
  });

  it('refuses frames replayed from another challenge', async () => {
    const { session } = await videoUser(server);
    const first = await session.videoChallenge();
    const captured = await frames();
    await sendCapture(server, session, first, captured, true);
    const second = await session.videoChallenge();
    advance(server, 1000);
    const replay = await failure(session.uploadVideoFrame({ challenge_id: second.challenge_id, index: '0', t: '300' }, blob(captured[0]!)));
    expect([replay.status, replay.error_type]).toEqual([422, 'session_upload_invalid']);
    expect(replay.error_message).toMatch(/another challenge/);
    // Another user sending the same frames is refused too.
    const other = await videoUser(server);
    const theirs = await other.session.videoChallenge();
    expect((await failure(other.session.uploadVideoFrame({ challenge_id: theirs.challenge_id, index: '0', t: '0' }, blob(captured[3]!)))).status).toBe(422);
  });

  it('refuses frames out of order or out of time, a recording that is not a video or too short, and a capture with too few frames', async () => {
    const { session } = await videoUser(server);
    const c = await session.videoChallenge();
    const f = await frames(3);
    const id = c.challenge_id;
    advance(server, 1000);
    expect((await failure(session.uploadVideoFrame({ challenge_id: id, index: '1', t: '100' }, blob(f[0]!)))).error_message).toMatch(/in order/);
    // A frame claiming more time than has passed since the challenge was issued (plus 2 s of slack).
    expect((await failure(session.uploadVideoFrame({ challenge_id: id, index: '0', t: '3500' }, blob(f[0]!)))).error_message).toMatch(/after it reached/);
    await session.uploadVideoFrame({ challenge_id: id, index: '0', t: '400' }, blob(f[0]!));
    expect((await failure(session.uploadVideoFrame({ challenge_id: id, index: '1', t: '400' }, blob(f[1]!)))).error_message).toMatch(/one after another/);
    expect((await failure(session.uploadVideoFrame({ challenge_id: id, index: '12', t: '900' }, blob(f[1]!)))).status).toBe(422);
    // A JPEG named as a video, and a video file too short for the challenge.
    advance(server, 5000);
    expect((await failure(session.uploadVideoRecording({ challenge_id: id, duration_ms: '4000' }, blob(f[2]!)))).error_message).toMatch(/WebM/);
    expect((await failure(session.uploadVideoRecording({ challenge_id: id, duration_ms: '1500' }, blob(minimalWebm())))).status).toBe(422);
    // A frame that is not an image.
    expect((await failure(session.uploadVideoFrame({ challenge_id: id, index: '1', t: '900' }, blob(minimalWebm())))).error_type).toBe(
      'session_upload_invalid',
    );
    await session.uploadVideoRecording({ challenge_id: id, duration_ms: '4000' }, blob(minimalWebm()));
    const few = await failure(session.submitVideo(id));
    expect([few.status, few.error_message]).toEqual([422, 'At least 8 frames are needed.']);
    expect(await analysisJobs()).toEqual([]);
  });

  it('hands out three challenges, counted atomically when asked for at once', async () => {
    const { session } = await videoUser(server);
    const answers = await Promise.allSettled(Array.from({ length: 5 }, () => session.videoChallenge()));
    const ok = answers.filter((a) => a.status === 'fulfilled');
    expect(ok).toHaveLength(3);
    expect(ok.map((a) => a.value.attempt).sort()).toEqual([1, 2, 3]);
    const refused = answers.find((a) => a.status === 'rejected');
    expect((refused?.reason as { status: number; error_type: string }).error_type).toBe('session_attempts_exceeded');
    expect((refused?.reason as { status: number }).status).toBe(429);
  });

  it('deletes the frames, the recording and their fingerprints with the user', async () => {
    const { session, id } = await videoUser(server);
    const c = await session.videoChallenge();
    await sendCapture(server, session, c, await frames(), true);
    const uploads = await sdb(server.verity.ctx.db).selectFrom('session_uploads').select('blob_key').where('user_id', '=', id).execute();
    expect(uploads).toHaveLength(9);
    expect(await server.verity.ctx.blobs.get(uploads[0]!.blob_key)).toBeDefined();
    expect((await server.api(`/api/users/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await sdb(server.verity.ctx.db).selectFrom('session_uploads').select('id').where('user_id', '=', id).execute()).toEqual([]);
    expect(await vdb(server.verity.ctx.db).selectFrom('video_frame_hashes').select('hash').where('user_id', '=', id).execute()).toEqual([]);
    for (const u of uploads) expect(await server.verity.ctx.blobs.get(u.blob_key)).toBeUndefined();
  });
});
