import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument, analyseFrames, analyseSelfie } from '../../../server/analysis/index.js';
import { VerificationStatus } from '../../../server/domain/catalogue.js';
import { moveVerification } from '../../../server/services/verifications.js';
import { parsePortraitQuality } from '../../../server/services/face-reference.js';
import { ANALYSIS_QUEUE, type FaceAnalysisJob } from '../../../server/domain/analysis-jobs.js';
import { portrait } from '../../fixtures/faces.js';
import { IDENTITIES } from '../../fixtures/identities.js';
import { sdb } from '../../../server/session/tables.js';
import { enqueueLicence, storeUpload, submitSelfie } from '../../helpers/analysis-jobs.js';
import { items, startTestServer, type TestServer } from '../../helpers/server.js';
import { createTemplate } from '../session/fixtures.js';

/**
 * The analysis queue consumer with the real engine, fed the jobs the hosted page's session API
 * enqueues (a document with front and back; a selfie), for an ID + selfie user.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ analysis: { analyseDocument, analyseSelfie, analyseFrames } });
});
afterAll(async () => {
  await server.close();
});

async function statuses(userId: number): Promise<Record<number, number>> {
  const rows = await server.verity.ctx.db.selectFrom('user_verifications').select(['method_id', 'status']).where('user_id', '=', userId).execute();
  return Object.fromEntries(rows.map((r) => [r.method_id, r.status]));
}

async function submitDocument(userId: number, identity: (typeof IDENTITIES)[number]): Promise<void> {
  await enqueueLicence(server, userId, identity, 1);
  await server.verity.ctx.queue.whenIdle();
}

/**
 * A liveness capture of one still photo: the straight look, then a "turn" that is the same still
 * three times; with `flash`, the still also stands in for the six flash frames and six blink frames.
 */
async function submitStillLiveness(userId: number, photo: Buffer, reviewOnFailure: boolean, flash = false): Promise<void> {
  const { ctx } = server.verity;
  const evidence = (t: number) => ({ box: { x: 0.2, y: 0.2, width: 0.5, height: 0.5 }, keypoints: [], score: 0.9, yaw: 0, t });
  const frames: FaceAnalysisJob['frames'] = [];
  const steps = flash ? (['look_straight', 'flash', 'turn_left', 'blink'] as const) : (['look_straight', 'turn_left'] as const);
  const counts: Record<string, number> = { look_straight: 1, flash: 6, turn_left: 3, blink: 6 };
  for (const [stepIndex, step] of steps.entries()) {
    for (let f = 0; f < counts[step]!; f++) {
      const stored = await storeUpload(server, userId, `selfie-${stepIndex}-${f}-${Math.random().toString(36).slice(2)}`, photo, 'selfie');
      frames.push({ ...stored, stepIndex, step, evidence: evidence(100 * (frames.length + 1)) });
    }
  }
  const job: FaceAnalysisJob = {
    kind: 'face',
    userId,
    methodId: 20,
    methodKey: 'liveness',
    challengeId: `chl_live_${userId}`,
    steps: [...steps],
    frames,
    ...(reviewOnFailure ? { reviewOnFailure: true } : {}),
    ...(flash ? { flashColours: ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff', '#ff00ff'] } : {}),
    submittedAt: ctx.clock.now().toISOString(),
  };
  await ctx.db.transaction().execute(async (trx) => {
    await moveVerification(trx, ctx.clock, userId, 20, VerificationStatus.processing);
    await ctx.queue.enqueue(ANALYSIS_QUEUE, job, {}, trx);
  });
  await ctx.queue.whenIdle();
}

describe('analysis runner: liveness attempts', { timeout: 120_000 }, () => {
  it('rejects a liveness capture of a still photo, and on the last attempt hands it to a reviewer instead', async () => {
    const template = await createTemplate(server, 'tmpl_live_runner', [20]);
    for (const last of [false, true]) {
      const created = await server.api('/api/users', {
        body: { email: `live${String(last)}@example.com`, first_name: 'Lea', last_name: 'Park', template_id: template },
      });
      const userId = Number(created.body.id);
      await submitStillLiveness(userId, await portrait(3, { width: 360 }), last);
      expect((await statuses(userId))[20], last ? 'last attempt' : 'normal attempt').toBe(
        last ? VerificationStatus.complete_in_review : VerificationStatus.rejected,
      );
    }
  });

  it('rejects a still photo that neither takes the flashed colours nor blinks, and says so', { timeout: 120_000 }, async () => {
    const template = await createTemplate(server, 'tmpl_live_flash', [20]);
    const created = await server.api('/api/users', { body: { email: 'flash@example.com', first_name: 'Lea', last_name: 'Park', template_id: template } });
    const userId = Number(created.body.id);
    await submitStillLiveness(userId, await portrait(3, { width: 360 }), false, true);
    expect((await statuses(userId))[20]).toBe(VerificationStatus.rejected);
    const row = await server.verity.ctx.db
      .selectFrom('user_verifications')
      .select('attributes')
      .where('user_id', '=', userId)
      .where('method_id', '=', 20)
      .executeTakeFirstOrThrow();
    const attributes = JSON.parse(row.attributes) as { reasons: string[]; flash_correlation?: number };
    expect(attributes.reasons).toEqual(expect.arrayContaining(['FLASH_NOT_FOLLOWED', 'BLINK_NOT_SEEN']));
    expect(attributes.flash_correlation ?? 0).toBeLessThan(0.6);
  });
});

describe('analysis runner (hosted-page jobs)', () => {
  it('completes an ID + selfie user whose selfie matches the licence portrait', async () => {
    const id = IDENTITIES[0]!;
    const created = await server.api('/api/users', {
      body: { email: 'a@example.com', first_name: 'Anna', last_name: 'Eriksson', template_id: 'tmpl_id_selfie' },
    });
    const userId = Number(created.body.id);
    await submitDocument(userId, id);
    expect((await statuses(userId))[3]).toBe(VerificationStatus.complete);
    const docs = await server.verity.ctx.db.selectFrom('document_jobs').selectAll().where('user_id', '=', userId).execute();
    expect(docs.map((d) => d.source)).toEqual(['session', 'session']);
    expect(docs.some((d) => d.portrait_embedding !== null)).toBe(true);
    // The portrait's quality is stored beside its descriptor: later face matches take their band from it.
    const front = docs.find((d) => d.portrait_embedding !== null)!;
    expect(parsePortraitQuality(front.portrait_quality)).toMatchObject({ detector: expect.any(Number) as number, side: expect.any(Number) as number });
    expect(parsePortraitQuality(front.portrait_quality)!.side).toBeGreaterThan(20);
    // Front and back keep an image each (they share a folder: one name for both let the back's
    // replace the front's), the originals with their EXIF are gone, and the session uploads, which
    // the dashboard shows, name the kept images instead of the deleted originals.
    const { blobs, db } = server.verity.ctx;
    expect(new Set(docs.map((d) => d.blob_key)).size).toBe(2);
    const kept = await Promise.all(docs.map((d) => blobs.get(d.blob_key)));
    expect(kept.every((b) => b !== undefined)).toBe(true);
    expect(Buffer.compare(kept[0]!.bytes, kept[1]!.bytes)).not.toBe(0);
    expect(await blobs.get(`users/${userId}/session/upl_${userId}_front`)).toBeUndefined();
    const uploads = await sdb(db).selectFrom('session_uploads').select(['id', 'blob_key', 'media_type']).where('user_id', '=', userId).orderBy('id').execute();
    expect(uploads.map((u) => u.blob_key).sort()).toEqual(docs.map((d) => d.blob_key).sort());
    for (const u of uploads) expect(await blobs.get(u.blob_key), u.id).toBeDefined();

    // The customer reads what the analysis found (issue 23): both sides, their fields and checks.
    const documentResult = await server.api(`/api/users/${userId}/verifications/document_id`);
    expect(documentResult.body.status.key).toBe('complete');
    expect(items(documentResult.body.documents).map((d) => d.side)).toEqual(['front', 'back']);
    expect(items(documentResult.body.checks).find((c) => String(c.name) === 'readable')?.outcome).toBe('passed');
    expect(items(documentResult.body.documents).some((d) => d.document_processor['Document Number'] !== undefined)).toBe(true);

    await submitSelfie(server, userId, await portrait(id.face, { shift: 0.05, width: 360 }));
    expect((await statuses(userId))[22]).toBe(VerificationStatus.complete);
    const selfieResult = await server.api(`/api/users/${userId}/verifications/selfie`);
    expect(items(selfieResult.body.checks).find((c) => String(c.name) === 'face_match')?.outcome).toBe('passed');
    expect(typeof selfieResult.body.scores.similarity).toBe('number');
    expect((await server.api(`/api/users/${userId}`)).body.data.status).toBe('Verified');
  }, 180_000);

  it('rejects a selfie of someone else after re-verification, against the earlier document', async () => {
    const id = IDENTITIES[1]!;
    const created = await server.api('/api/users', {
      body: { email: 'j@example.com', first_name: 'Jose', last_name: 'Garcia', template_id: 'tmpl_id_selfie' },
    });
    const userId = Number(created.body.id);
    await submitDocument(userId, id);
    await server.api('/api/user/document/reverify', { body: { user_id: String(userId) } });
    await submitSelfie(server, userId, await portrait((id.face + 7) % 22));
    const v = await server.verity.ctx.db
      .selectFrom('user_verifications')
      .select(['status', 'attributes'])
      .where('user_id', '=', userId)
      .where('method_id', '=', 22)
      .executeTakeFirstOrThrow();
    expect(v.status).toBe(VerificationStatus.rejected);
    expect(JSON.parse(v.attributes).reasons).toContain('FACE_MISMATCH');
  }, 180_000);
});
