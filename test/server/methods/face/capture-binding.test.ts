/**
 * The face capture is bound to the server's challenge (issue 20, point 5): nonce, time window,
 * dense frames per move, and a limited number of attempts ending in review, never a loop.
 */
import sharp from 'sharp';
import { failure } from '../../session/fixtures.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VerificationStatus } from '../../../../server/domain/catalogue.js';
import { moveVerification } from '../../../../server/services/verifications.js';
import { ANALYSIS_QUEUE, type AnalysisJob } from '../../../../server/domain/analysis-jobs.js';
import type { FaceChallenge, FaceEvidence } from '../../../../src/api/contract.js';
import { ApiError, type SessionClient } from '../../../../src/api/session-client.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { client, createTemplate, createUser, local, giveConsent } from '../../session/fixtures.js';
import { FLASH_COLOURS } from '../../../../server/methods/face/rules.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

const advance = (ms: number) => (server.clock as unknown as { advance(ms: number): void }).advance(ms);

async function livenessSession(): Promise<{ session: SessionClient; id: number }> {
  const template = await createTemplate(server, `tmpl_live_${Math.random().toString(36).slice(2, 6)}`, [20]);
  const { id, link } = await createUser(server, { email: `l${Math.random().toString(36).slice(2, 8)}@example.com`, template_id: template });
  const session = client(server);
  await session.start(local(server, link));
  await giveConsent(session);
  return { session, id };
}

const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#998877' } })
    .jpeg()
    .toBuffer();
const evidence = (t: number): string =>
  JSON.stringify({ box: { x: 0.3, y: 0.2, width: 0.4, height: 0.5 }, keypoints: [{ x: 0.4, y: 0.4 }], score: 0.95, yaw: 0, t } satisfies FaceEvidence);

function send(session: SessionClient, c: FaceChallenge, step: number, frame: number, t: number, challengeId = c.challenge_id) {
  return jpeg().then((bytes) =>
    session.uploadFaceFrame(
      'liveness',
      { challenge_id: challengeId, step_index: String(step), step: c.steps[step]!, frame_index: String(frame), evidence: evidence(t) },
      new Blob([bytes]),
    ),
  );
}

/** Frames a step needs at submit: the straight look 1, the flash one per colour, the blink 8, a move 3. */
const needed = (step: string | undefined): number => ({ look_straight: 1, flash: FLASH_COLOURS, blink: 8 })[step ?? ''] ?? 3;

describe('liveness capture bound to the challenge', () => {
  it('hands out dense-frame rules with a short window, and refuses one still per move', async () => {
    const { session } = await livenessSession();
    const c = await session.faceChallenge('liveness');
    expect(c).toMatchObject({ frames_per_step: 6, min_frames_per_move: 3, step_window_ms: 15_000, attempt: 1, attempts_left: 2, review_on_failure: false });
    expect(Date.parse(c.expires_at) - server.clock.now().getTime()).toBe(2 * 60 * 1000);
    let t = 0;
    for (const i of c.steps.keys()) await send(session, c, i, 0, (t += 50));
    const e = await failure(session.submitFace('liveness', c.challenge_id));
    expect(e.status).toBe(422);
    expect(e.error_type).toBe('session_upload_invalid');
    // Once a later step has begun, an earlier one takes no more frames.
    expect((await failure(send(session, c, 1, 1, (t += 50)))).error_type).toBe('session_upload_invalid');

    const again = await session.faceChallenge('liveness');
    expect(again.attempt).toBe(2);
    for (const [i, step] of again.steps.entries()) for (let f = 0; f < needed(step); f++) await send(session, again, i, f, (t += 50));
    expect((await session.submitFace('liveness', again.challenge_id)).method.status).toBe('processing');
    const rows = await server.verity.ctx.db.selectFrom('jobs').select('payload').where('queue', '=', ANALYSIS_QUEUE).execute();
    const job = JSON.parse(rows[0]!.payload) as AnalysisJob;
    if (job.kind !== 'face') throw new Error('no face job');
    expect(job.frames.map((f) => f.stepIndex)).toEqual(again.steps.flatMap((s, i) => Array<number>(needed(s)).fill(i)));
    expect(job.frames.map((f) => f.evidence.t)).toEqual([...job.frames.map((f) => f.evidence.t)].sort((a, b) => a - b));
  });

  it('takes every frame of two whole liveness attempts: an honest retry is not refused by the upload limit', async () => {
    const { session } = await livenessSession();
    let sent = 0;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const c = await session.faceChallenge('liveness');
      expect(c.attempt).toBe(attempt);
      let t = 0;
      for (const [i, step] of c.steps.entries()) {
        const max = step === 'flash' ? FLASH_COLOURS : step === 'blink' ? c.blink!.frames : c.frames_per_step;
        for (let f = 0; f < max; f++, sent++) await send(session, c, i, f, (t += 20));
      }
    }
    // More than the 60 document/card/voice/video uploads a user may send in 10 minutes.
    expect(sent).toBeGreaterThan(60);
  });

  it('refuses frames without the nonce, outside the step window, out of time order, beyond the frame count or after expiry', async () => {
    const { session } = await livenessSession();
    const c = await session.faceChallenge('liveness');
    expect((await failure(send(session, c, 0, 0, 100, 'chl_forged'))).error_type).toBe('session_challenge_expired');
    await send(session, c, 0, 0, 100);
    // A frame may not claim more time since the challenge than has passed on the server (+2 s).
    const early = await failure(send(session, c, 1, 0, 10_000));
    expect([early.status, early.error_type]).toEqual([422, 'session_upload_invalid']);
    // Frames are captured one after another.
    expect((await failure(send(session, c, 1, 0, 100))).error_type).toBe('session_upload_invalid');
    await send(session, c, 1, 0, 200);
    expect((await failure(send(session, c, 1, 6, 300))).error_type).toBe('session_upload_invalid');
    expect((await failure(send(session, c, 1, 2, 300))).error_type).toBe('session_upload_invalid');
    // The frames of a step arrive together: one sent 15 s after the step's first is refused.
    advance(15_001);
    const late = await failure(send(session, c, 1, 1, 300));
    expect([late.status, late.error_type]).toEqual([410, 'session_challenge_expired']);
    advance(2 * 60 * 1000);
    expect((await failure(send(session, c, 2, 0, 400))).status).toBe(410);
  });

  it('counts attempts across retries: three, then one that goes to review on failure, then none', async () => {
    const { session, id } = await livenessSession();
    const seen: Pick<FaceChallenge, 'attempt' | 'attempts_left' | 'review_on_failure'>[] = [];
    // The method's view says how many attempts are left before the last try, refused ones counted.
    const viewLeft: (number | undefined)[] = [];
    const left = async (): Promise<number | undefined> => {
      const m = (await session.session()).methods[0]!;
      return m.key === 'liveness' ? m.needs.attempts_left : undefined;
    };
    for (let i = 0; i < 4; i++) {
      viewLeft.push(await left());
      const c = await session.faceChallenge('liveness');
      seen.push({ attempt: c.attempt, attempts_left: c.attempts_left, review_on_failure: c.review_on_failure });
      if (i === 1) {
        // The analysis rejects the second capture; the user retries: the count goes on.
        await server.verity.ctx.db.transaction().execute((trx) => moveVerification(trx, server.verity.ctx.clock, id, 20, VerificationStatus.rejected));
        expect((await session.session()).methods[0]!.can_retry).toBe(true);
        await session.retryMethod('liveness');
      }
    }
    expect(seen).toEqual([
      { attempt: 1, attempts_left: 2, review_on_failure: false },
      { attempt: 2, attempts_left: 1, review_on_failure: false },
      { attempt: 3, attempts_left: 0, review_on_failure: false },
      { attempt: 4, attempts_left: 0, review_on_failure: true },
    ]);
    // Before the fourth challenge (after a refused capture and two more) the view said 0: the widget shows help then.
    expect(viewLeft).toEqual([3, 2, 1, 0]);
    const e = await failure(session.faceChallenge('liveness'));
    expect([e.status, e.error_type]).toEqual([429, 'session_attempts_exceeded']);
  });
});

describe('why the capture before a retry was refused', () => {
  it('tells the widget in the view, until the next challenge', async () => {
    const { session, id } = await livenessSession();
    const needs = async () => {
      const m = (await session.session()).methods[0]!;
      return m.key === 'liveness' ? m.needs : undefined;
    };
    const refuse = async (remarks: string) => {
      await session.faceChallenge('liveness');
      await server.verity.ctx.db
        .transaction()
        .execute((trx) => moveVerification(trx, server.verity.ctx.clock, id, 20, VerificationStatus.rejected, { remarks }));
      await session.retryMethod('liveness');
      return (await needs())?.last_refusal;
    };
    expect((await needs())?.last_refusal).toBeUndefined();
    // The analysis's reasons as the runner stores them: a lost face explains the flash and blink after it.
    expect(await refuse('NO_FACE, FLASH_NOT_FOLLOWED, BLINK_NOT_SEEN')).toBe('face_not_seen');
    expect(await refuse('PLANAR_FACE, FLASH_NOT_FOLLOWED, POSSIBLE_DUPLICATE')).toBe('not_live');
    // A new challenge is a new attempt: what it ends in (a time-out on the device) is not that refusal.
    await session.faceChallenge('liveness');
    expect((await needs())?.last_refusal).toBeUndefined();
  });
});

describe('face challenge attempts', () => {
  it('challenges asked for at once share the attempts: three, one last try for review, then none', async () => {
    const { session } = await livenessSession();
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        session.faceChallenge('liveness').then(
          (c) => `attempt ${c.attempt}`,
          (e: unknown) => (e instanceof ApiError ? e.error_type : 'thrown'),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.startsWith('attempt')).sort()).toEqual(['attempt 1', 'attempt 2', 'attempt 3', 'attempt 4']);
    expect(outcomes.filter((o) => o === 'session_attempts_exceeded')).toHaveLength(4);
  });
});
