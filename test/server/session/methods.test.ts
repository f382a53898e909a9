import sharp from 'sharp';
import { failure } from './fixtures.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANALYSIS_QUEUE, type AnalysisJob } from '../../../server/domain/analysis-jobs.js';
import { writeSetting } from '../../../server/store/repos/settings-repo.js';
import { findWorkflow, insertTemplate } from '../../../server/store/repos/templates-repo.js';
import type { SessionClient } from '../../../src/api/session-client.js';
import type { FaceEvidence } from '../../../src/api/contract.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { client, configureKnowledge, createTemplate, createUser, KNOWLEDGE_ANSWERS, local, giveConsent } from './fixtures.js';

let server: TestServer;
beforeEach(async () => {
  // No workers: the analysis engine (once registered) must not consume the jobs these tests inspect.
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

async function sessionFor(methodIds: number[], extra: Record<string, unknown> = {}): Promise<{ session: SessionClient; id: number }> {
  const template = await createTemplate(server, `tmpl_m${methodIds.join('_')}_${Math.random().toString(36).slice(2, 6)}`, methodIds);
  const { id, link } = await createUser(server, { email: `m${Math.random().toString(36).slice(2, 8)}@example.com`, template_id: template, ...extra });
  const session = client(server);
  await session.start(local(server, link));
  await giveConsent(session);
  return { session, id };
}

async function analysisJobs(): Promise<AnalysisJob[]> {
  const rows = await server.verity.ctx.db.selectFrom('jobs').select('payload').where('queue', '=', ANALYSIS_QUEUE).execute();
  return rows.map((r) => JSON.parse(r.payload) as AnalysisJob);
}

async function eventTypes(id: number): Promise<string[]> {
  const rows = await server.verity.ctx.db.selectFrom('events').select('type').where('user_id', '=', id).orderBy('occurred_at').orderBy('id').execute();
  return rows.map((r) => r.type);
}

const png = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#778899' } })
    .png()
    .toBuffer();
const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#998877' } })
    .jpeg()
    .toBuffer();
const evidence: FaceEvidence = { box: { x: 0.3, y: 0.2, width: 0.4, height: 0.5 }, keypoints: [{ x: 0.4, y: 0.4 }], score: 0.95, yaw: 0, t: 100 };

describe('geolocation', () => {
  it('rejects a position outside the allowed countries, records it, and allows a limited retry', async () => {
    await writeSetting(server.verity.ctx.db, 'allowed_countries', ['FR', 'BE']);
    const { session, id } = await sessionFor([8]);
    const berlin = { latitude: 52.52, longitude: 13.405, accuracy: 30, timestamp: Date.now() };
    const e = await failure(session.submitGeolocation(berlin));
    expect(e.status).toBe(422);
    expect(e.error_type).toBe('session_location_rejected');
    const view = await session.session();
    const geo = view.methods[0]!;
    expect(geo.status).toBe('rejected');
    expect(geo.can_retry).toBe(true);
    expect(geo.reason).toMatch(/outside/);
    if (geo.key === 'geolocation') expect(geo.needs.allowed_countries).toEqual(['FR', 'BE']);
    expect(await eventTypes(id)).toContain('verification.rejected');
    expect((await server.api(`/api/users/${id}`)).body.data.status).toBe('Review');

    await session.retryMethod('geolocation');
    const brussels = await session.submitGeolocation({ latitude: 50.8503, longitude: 4.3517, accuracy: 10, timestamp: Date.now() });
    expect(brussels.method.status).toBe('complete');
    const attrs = await server.verity.ctx.db.selectFrom('user_verifications').select('attributes').where('user_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(attrs.attributes)).toMatchObject({ country: 'BE', latitude: 50.85, longitude: 4.35 });
    expect((await server.api(`/api/users/${id}`)).body.data.status).toBe('Verified');
  });

  it('accepts regions such as EU', async () => {
    await writeSetting(server.verity.ctx.db, 'allowed_countries', ['EU']);
    const { session } = await sessionFor([8]);
    expect((await session.submitGeolocation({ latitude: 41.9028, longitude: 12.4964, accuracy: 10, timestamp: Date.now() })).method.status).toBe('complete');
  });
});

describe('knowledge', () => {
  it('fails below the threshold with attempts left, then rejects when attempts run out', async () => {
    await configureKnowledge(server, { attempts: 2 });
    const { session, id } = await sessionFor([21]);
    const view = await session.session();
    const k = view.methods[0]!;
    if (k.key !== 'knowledge') throw new Error('no knowledge step');
    expect(JSON.stringify(view)).not.toContain('answer_hashes');
    const wrong = { answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: q.kind === 'choice' ? 'basic' : '1999-01-01' })) };
    const first = await failure(session.submitKnowledge(wrong));
    expect(first.error_type).toBe('session_knowledge_failed');
    expect(first.details.attempts_left).toBe(1);
    const second = await failure(session.submitKnowledge(wrong));
    expect(second.status).toBe(429);
    expect(second.error_type).toBe('session_attempts_exceeded');
    const after = (await session.session()).methods[0]!;
    expect(after.status).toBe('rejected');
    expect(after.can_retry).toBe(false);
    expect(await eventTypes(id)).toContain('verification.rejected');
    // Right answers no longer help.
    const late = await failure(session.submitKnowledge({ answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: KNOWLEDGE_ANSWERS[q.id]! })) }));
    expect(late.status).toBe(409);
  });
});

describe('document upload and submit', () => {
  it('checks uploads by content and size, then submits to processing with an analysis job', async () => {
    const { session, id } = await sessionFor([3]);
    const view = await session.session();
    const doc = view.methods[0]!;
    if (doc.key !== 'document_id') throw new Error('no document step');
    expect(doc.needs.document_types.map((t) => t.key)).toEqual(['passport', 'id_card', 'driving_licence']);
    expect(doc.needs.max_bytes).toBe(10 * 1024 * 1024 - 1);

    // A text file named like a JPEG is refused by its bytes.
    const fake = await failure(
      session.uploadDocument({ document_type: 'id_card', side: 'front', source: 'upload' }, new Blob(['not an image at all']), 'id.jpg'),
    );
    expect(fake.status).toBe(422);
    expect(fake.error_type).toBe('session_upload_invalid');
    // 10 MB is not "less than 10 MB".
    const big = Buffer.alloc(10 * 1024 * 1024, 0);
    (await png()).copy(big);
    const tooBig = await failure(session.uploadDocument({ document_type: 'id_card', side: 'front', source: 'upload' }, new Blob([big]), 'big.png'));
    expect(tooBig.status).toBe(413);
    expect(tooBig.error_type).toBe('session_upload_too_large');

    const front = await session.uploadDocument(
      {
        document_type: 'id_card',
        side: 'front',
        source: 'camera',
        quality: JSON.stringify({ blur_variance: 180, glare_ratio: 0.01, mean_luma: 120, document_found: true, good_frames: 5 }),
      },
      new Blob([await jpeg()]),
      'front.jpg',
    );
    expect(front).toMatchObject({ document_type: 'id_card', side: 'front', media_type: 'image/jpeg' });
    // Two-sided: submitting without the back is refused.
    const noBack = await failure(session.submitDocument({ document_type: 'id_card', front_upload_id: front.upload_id }));
    expect(noBack.status).toBe(422);
    expect(noBack.errors.back_upload_id).toBeDefined();
    const back = await session.uploadDocument({ document_type: 'id_card', side: 'back', source: 'upload' }, new Blob([await png()]), 'back.png');
    expect((await session.session()).methods[0]!.key === 'document_id').toBe(true);

    const result = await session.submitDocument({ document_type: 'id_card', front_upload_id: front.upload_id, back_upload_id: back.upload_id });
    expect(result.method.status).toBe('processing');
    expect(result.state).toBe('ready_to_complete');
    expect(await eventTypes(id)).toContain('verification.pending');

    const [job] = await analysisJobs();
    if (job?.kind !== 'document') throw new Error('no document job');
    expect(job).toMatchObject({
      userId: id,
      methodId: 3,
      documentType: 'id_card',
      front: { uploadId: front.upload_id, mediaType: 'image/jpeg', source: 'camera' },
      back: { uploadId: back.upload_id, mediaType: 'image/png' },
    });
    expect(job.workflowRawId).toEqual(expect.any(Number));
    const stored = await server.verity.ctx.blobs.get(job.front.blobKey);
    expect(stored?.contentType).toBe('image/jpeg');
    expect(job.front.blobKey.startsWith(`users/${id}/`)).toBe(true);
    // Nothing fakes the result: the session side leaves the method processing for the analysis engine.
    expect((await session.session()).methods[0]!.status).toBe('processing');
  });
});

describe('document with several workflows', () => {
  it('keeps the step to do until every workflow has its document, each submission its own job', async () => {
    const db = server.verity.ctx.db;
    const id = (await findWorkflow(db, 'flow_id_document'))!.raw_id;
    const poa = (await findWorkflow(db, 'flow_proof_of_address'))!.raw_id;
    await insertTemplate(db, {
      name: 'tmpl_kyc2',
      label: 'ID and address',
      methodIds: [3],
      workflowRawIds: [id, poa],
      createdAt: server.clock.now().toISOString(),
    });
    const { link, id: userId } = await createUser(server, { email: 'two@example.com', template_id: 'tmpl_kyc2' });
    const session = client(server);
    await session.start(local(server, link));
    await giveConsent(session);
    const types = async () => {
      const m = (await session.session()).methods[0]!;
      return m.key === 'document_id' ? m.needs.document_types.map((t) => t.key) : [];
    };
    expect(await types()).toEqual(['passport', 'id_card', 'driving_licence', 'utility_bill', 'bank_statement']);

    const passport = await session.uploadDocument({ document_type: 'passport', side: 'front', source: 'upload' }, new Blob([await jpeg()]), 'p.jpg');
    const first = await session.submitDocument({ document_type: 'passport', front_upload_id: passport.upload_id });
    expect(first.method.status).toBe('assigned');
    expect(first.state).toBe('in_progress');
    expect(await types()).toEqual(['utility_bill', 'bank_statement']);
    expect((await server.api(`/api/users/${userId}`)).body.data.verifications[0].status.value).toBe(1);

    const bill = await session.uploadDocument({ document_type: 'utility_bill', side: 'front', source: 'upload' }, new Blob([await png()]), 'bill.png');
    const second = await session.submitDocument({ document_type: 'utility_bill', front_upload_id: bill.upload_id });
    expect(second.method.status).toBe('processing');
    expect(second.state).toBe('ready_to_complete');
    const jobs = await analysisJobs();
    expect(jobs.map((j) => (j.kind === 'document' ? [j.documentType, j.workflowRawId] : null))).toEqual([
      ['passport', id],
      ['utility_bill', poa],
    ]);
  });
});

describe('selfie and liveness', () => {
  it('hands out a randomised liveness challenge, takes frames in order, and submits to processing', async () => {
    const { session, id } = await sessionFor([20]);
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
    await expect((await sessionFor([22])).session.faceChallenge('selfie').then((c) => [c.flash, c.blink])).resolves.toEqual([undefined, undefined]);

    const outOfOrder = await failure(
      session.uploadFaceFrame(
        'liveness',
        { challenge_id: challenge.challenge_id, step_index: '1', step: challenge.steps[1]!, evidence: JSON.stringify(evidence) },
        new Blob([await jpeg()]),
      ),
    );
    expect(outOfOrder.error_type).toBe('session_upload_invalid');
    const wrongStep = await failure(
      session.uploadFaceFrame(
        'liveness',
        { challenge_id: challenge.challenge_id, step_index: '0', step: 'turn_left', evidence: JSON.stringify(evidence) },
        new Blob([await jpeg()]),
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
          new Blob([await jpeg()]),
        );
        expect(frame.frame_id).toMatch(/^frm_/);
      }
    }
    const result = await session.submitFace('liveness', challenge.challenge_id);
    expect(result.method.status).toBe('processing');
    const [job] = await analysisJobs();
    if (job?.kind !== 'face') throw new Error('no face job');
    expect(job).toMatchObject({ userId: id, methodId: 20, methodKey: 'liveness', challengeId: challenge.challenge_id, steps: challenge.steps });
    expect(job.frames.map((f) => f.step)).toEqual(challenge.steps.flatMap((s) => Array<string>(count(s)).fill(s)));
    // The analysis is told which colours were flashed.
    expect(job.flashColours).toEqual(challenge.flash!.colours);
    expect(job.frames[0]!.evidence.score).toBe(0.95);
  });

  it('expires a challenge after 5 minutes', async () => {
    const { session } = await sessionFor([22]);
    const challenge = await session.faceChallenge('selfie');
    expect(challenge.steps).toEqual(['look_straight']);
    (server.clock as unknown as { advance(ms: number): void }).advance(5 * 60 * 1000 + 1);
    const e = await failure(
      session.uploadFaceFrame(
        'selfie',
        { challenge_id: challenge.challenge_id, step_index: '0', step: 'look_straight', evidence: JSON.stringify(evidence) },
        new Blob([await jpeg()]),
      ),
    );
    expect(e.status).toBe(410);
    expect(e.error_type).toBe('session_challenge_expired');
  });
});

describe('methods not assigned and completion', () => {
  it('answers 404 for a method the template does not have, 409 for completing too early', async () => {
    const { session } = await sessionFor([1]);
    const e = await failure(session.startMethod('phone'));
    expect(e.status).toBe(404);
    expect(e.error_type).toBe('session_method_not_assigned');
    const early = await failure(session.complete());
    expect(early.status).toBe(409);
    expect(early.error_type).toBe('session_incomplete');
  });

  it('redirects to the account default when the user has no URL, never to a non-http(s) URL', async () => {
    await writeSetting(server.verity.ctx.db, 'default_completion_url', 'https://bank.example/after?reference_id=spoof&status=x');
    await configureKnowledge(server, { ask: 1, pass: 1 });
    const { session, id } = await sessionFor([21]);
    // The API refuses such URLs; the redirect must not trust the stored value either.
    await server.verity.ctx.db
      .updateTable('users')
      .set({ completion_url: 'javascript:alert(1)', redirect_url: 'data:text/html,x' })
      .where('id', '=', id)
      .execute();
    const k = (await session.session()).methods[0]!;
    if (k.key !== 'knowledge') throw new Error('no knowledge step');
    await session.submitKnowledge({ answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: KNOWLEDGE_ANSWERS[q.id]! })) });
    const done = await session.complete();
    expect(done.reference_id).toBeNull();
    const url = new URL(done.redirect_url!);
    expect(url.origin + url.pathname).toBe('https://bank.example/after');
    expect(url.searchParams.getAll('status')).toEqual(['completed']);
    expect(url.searchParams.has('reference_id')).toBe(false);
  });
});
