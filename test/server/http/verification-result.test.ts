/**
 * Issue 23: `GET /api/users/{id}/verifications/{key_or_id}`, additive to the spec, gives the
 * customer the analysis behind a status: each check with its outcome and reason, the fields read,
 * scores, and signed image URLs. The real analysis end to end is covered in
 * test/server/services/analysis-runner.test.ts; here, stored results of every shape.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { VerificationStatus } from '../../../server/domain/catalogue.js';
import { markDocumentProcessing, moveDocument } from '../../../server/services/document-jobs.js';
import { moveVerification } from '../../../server/services/verifications.js';
import { insertAnalysedDocumentJob } from '../../helpers/document-jobs.js';
import { items, startTestServer, type Json, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

async function user(template: string): Promise<number> {
  const res = await server.api('/api/users', { body: { email: `${template}@example.test`, first_name: 'Anna', last_name: 'Eriksson', template_id: template } });
  expect(res.status).toBe(200);
  return Number(res.body.id);
}

/** A document job as the analysis leaves it: a stored image and the spec 2.7 content. */
async function analysedDocument(userId: number, docId: string, content: Record<string, unknown>): Promise<void> {
  const { ctx } = server.verity;
  const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#88aacc' } })
    .jpeg()
    .toBuffer();
  const { blobKey } = await insertAnalysedDocumentJob(ctx.db, { userId, docId, content, size: image.length, now: ctx.clock.now() });
  await ctx.blobs.put(blobKey, image, 'image/jpeg');
}

const byName = (checks: Json) => Object.fromEntries(items(checks).map((c) => [String(c.name), c]));

describe('one verification’s result', () => {
  it('shows why a document went to review: each check, the fields read, and its image', async () => {
    const userId = await user('tmpl_document');
    await analysedDocument(userId, 'doc_front', {
      doc_type: 'driving_licence',
      photoshopped: true,
      mrz_data: [],
      ai_analysis: { name_match: { full_name: true }, internet_detection: false },
      document_processor: { 'Document Number': { value: 'D1234567', confidence: 0.9 } },
    });
    const { ctx } = server.verity;
    await ctx.db.transaction().execute(async (trx) => {
      await markDocumentProcessing(trx, ctx.clock, userId);
      await moveDocument(trx, ctx.clock, userId, VerificationStatus.complete_in_review, {
        remarks: null,
        attributes: { verify_documents: [{ doc_id: 'doc_front', side: 'front', document_status: 'Success', reason: null, flags: ['photoshopped'] }] },
      });
    });

    for (const ref of ['document_id', '3']) {
      const res = await server.api(`/api/users/${userId}/verifications/${ref}`);
      expect(res.status, ref).toBe(200);
      expect(res.body.status).toEqual({ value: 4, key: 'complete_in_review', friendly: expect.any(String) as unknown as Json });
      const checks = byName(res.body.checks);
      expect(checks.photoshopped).toEqual({
        name: 'photoshopped',
        outcome: 'flagged',
        reason: expect.stringContaining('edited') as unknown as Json,
        value: null,
      });
      expect(checks.name_match!.outcome).toBe('passed');
      expect(checks.screen_recapture!.outcome).toBe('passed');
      expect(checks.mrz_check_digits!.outcome).toBe('not_run');
      const doc = items(res.body.documents)[0]!;
      expect(doc.side).toBe('front');
      expect(doc.document_processor['Document Number']).toEqual({ value: 'D1234567', confidence: 0.9 });
      // The signed image URL serves the stored image, without a key (it is the credential).
      const image = await fetch(String(doc.image_url).replace('http://verity.test', server.url));
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toContain('image/jpeg');
    }
  });

  it('reads a face result as checks and scores: a different person fails the match', async () => {
    const userId = await user('tmpl_id_selfie');
    const { ctx } = server.verity;
    await ctx.db.transaction().execute(async (trx) => {
      await moveVerification(trx, ctx.clock, userId, 22, VerificationStatus.processing);
      await moveVerification(trx, ctx.clock, userId, 22, VerificationStatus.rejected, {
        remarks: 'FACE_MISMATCH',
        attributes: {
          decision: 'rejected',
          reasons: ['FACE_MISMATCH'],
          similarity: 0.12,
          antispoof: 0.9,
          challenges: [{ challenge: 'turn_left', passed: true, measured: 20 }],
        },
      });
    });
    const res = await server.api(`/api/users/${userId}/verifications/selfie`);
    expect(res.status).toBe(200);
    expect(res.body.status.key).toBe('rejected');
    expect(res.body.reason).toBe('FACE_MISMATCH');
    const checks = byName(res.body.checks);
    expect(checks.face_match).toEqual({ name: 'face_match', outcome: 'failed', reason: 'The face does not match the document portrait.', value: 0.12 });
    expect(checks.face_present!.outcome).toBe('passed');
    expect(checks.liveness_challenges!.outcome).toBe('passed');
    expect(res.body.scores).toEqual({ similarity: 0.12, antispoof: 0.9 });
  });

  it('answers 404 for a method the user does not have or that does not exist, and for an unknown user', async () => {
    const userId = await user('tmpl_contact');
    const email = await server.api(`/api/users/${userId}/verifications/email`);
    expect(email.status).toBe(200);
    expect(email.body.checks).toEqual([]);
    expect((await server.api(`/api/users/${userId}/verifications/document_id`)).body).toEqual({
      error_type: 'api_resource_error',
      error_message: 'Verification Not Found',
    });
    expect((await server.api(`/api/users/${userId}/verifications/telepathy`)).status).toBe(404);
    expect((await server.api('/api/users/999999/verifications/email')).body.error_type).toBe('api_user_error');
    expect((await server.api(`/api/users/${userId}/verifications/email`, { key: null })).status).toBe(401);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await server.api('/api/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/users/{user_id}/verifications/{verification}'] ?? {})).toEqual(expect.arrayContaining(['get', 'delete']));
  });
});
