/** The selfie and liveness steps through the session API: the challenge, frames in order, submission to analysis, expiry. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FaceEvidence } from '../../../../src/api/contract.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { analysisJobs, failure, jpegImage, sessionFor } from '../../session/fixtures.js';

let server: TestServer;
beforeEach(async () => {
  // No workers: the analysis engine (once registered) must not consume the jobs these tests inspect.
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

const evidence: FaceEvidence = { box: { x: 0.3, y: 0.2, width: 0.4, height: 0.5 }, keypoints: [{ x: 0.4, y: 0.4 }], score: 0.95, yaw: 0, t: 100 };

describe('selfie and liveness', () => {
  it('hands out a randomised liveness challenge, takes frames in order, and submits to processing', async () => {
    const { session, id } = await sessionFor(server, [20]);
    const challenge = await session.faceChallenge('liveness');
    expect(challenge.steps[0]).toBe('look_straight');
    expect(challenge.steps.length).toBeGreaterThanOrEqual(5);
    expect(new Set(challenge.steps).size).toBe(challenge.steps.length);
    // The screen flash follows the straight look, the blink ends (issue 20): ten colours from the
    // palette (a replay under another random sequence then matches by chance ~0.5 % of the time),
    // never the same twice in a row, 500 ms each (two changes a second, at most three allowed).
    expect([challenge.steps[1], challenge.steps.at(-1)]).toEqual(['flash', 'blink']);
    expect(challenge.flash?.colour_ms).toBe(500);
    expect(challenge.flash?.colours).toHaveLength(10);
    for (const [i, c] of challenge.flash!.colours.entries()) {
      expect(c).toMatch(/^#(00|ff){3}$/);
      expect(c).not.toBe(challenge.flash!.colours[i - 1]);
    }
    expect(challenge.blink).toEqual({ window_ms: 2500, frames: 12, min_frames: 8 });
    await expect((await sessionFor(server, [22])).session.faceChallenge('selfie').then((c) => [c.flash, c.blink])).resolves.toEqual([undefined, undefined]);

    const outOfOrder = await failure(
      session.uploadFaceFrame(
        'liveness',
        { challenge_id: challenge.challenge_id, step_index: '1', step: challenge.steps[1]!, evidence: JSON.stringify(evidence) },
        new Blob([await jpegImage()]),
      ),
    );
    expect(outOfOrder.error_type).toBe('session_upload_invalid');
    const wrongStep = await failure(
      session.uploadFaceFrame(
        'liveness',
        { challenge_id: challenge.challenge_id, step_index: '0', step: 'turn_left', evidence: JSON.stringify(evidence) },
        new Blob([await jpegImage()]),
      ),
    );
    expect(wrongStep.error_type).toBe('session_upload_invalid');

    const early = await failure(session.submitFace('liveness', challenge.challenge_id));
    expect(early.error_type).toBe('session_upload_invalid');
    // The straight look sends its held frame; each move its dense frames (three here); the flash a
    // frame per colour, the blink its eight frames at least.
    const count = (step: string) => ({ look_straight: 1, flash: 10, blink: 8 })[step] ?? 3;
    let t = 0;
    for (const [i, step] of challenge.steps.entries()) {
      for (let f = 0; f < count(step); f++) {
        const frame = await session.uploadFaceFrame(
          'liveness',
          {
            challenge_id: challenge.challenge_id,
            step_index: String(i),
            step,
            frame_index: String(f),
            evidence: JSON.stringify({ ...evidence, t: (t += 50) }),
          },
          new Blob([await jpegImage()]),
        );
        expect(frame.frame_id).toMatch(/^frm_/);
      }
    }
    const result = await session.submitFace('liveness', challenge.challenge_id);
    expect(result.method.status).toBe('processing');
    const [job] = await analysisJobs(server);
    if (job?.kind !== 'face') throw new Error('no face job');
    expect(job).toMatchObject({ userId: id, methodId: 20, methodKey: 'liveness', challengeId: challenge.challenge_id, steps: challenge.steps });
    expect(job.frames.map((f) => f.step)).toEqual(challenge.steps.flatMap((s) => Array<string>(count(s)).fill(s)));
    // The analysis is told which colours were flashed.
    expect(job.flashColours).toEqual(challenge.flash!.colours);
    expect(job.frames[0]!.evidence.score).toBe(0.95);
  });

  it('expires a challenge after 5 minutes', async () => {
    const { session } = await sessionFor(server, [22]);
    const challenge = await session.faceChallenge('selfie');
    expect(challenge.steps).toEqual(['look_straight']);
    (server.clock as unknown as { advance(ms: number): void }).advance(5 * 60 * 1000 + 1);
    const e = await failure(
      session.uploadFaceFrame(
        'selfie',
        { challenge_id: challenge.challenge_id, step_index: '0', step: 'look_straight', evidence: JSON.stringify(evidence) },
        new Blob([await jpegImage()]),
      ),
    );
    expect(e.status).toBe(410);
    expect(e.error_type).toBe('session_challenge_expired');
  });
});
