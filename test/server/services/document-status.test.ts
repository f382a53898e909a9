/**
 * Issue 23: the statuses the customer reads must agree with the analysis. A document the analysis
 * sends to review (say `photoshopped`) read "Complete" in the API, because the workflow rule of
 * spec 3.2 (complete once every workflow is complete or in review) turned the reviewed workflow
 * into a complete method, and the user then read as Verified.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VerificationStatus } from '../../../server/domain/catalogue.js';
import { documentStatusFromWorkflows } from '../../../server/domain/verification-rules.js';
import { markDocumentProcessing, moveDocument } from '../../../server/services/document-jobs.js';
import { items, startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

const S = VerificationStatus;

async function documentStatus(userId: number): Promise<{ value: number; user: string }> {
  const res = await server.api(`/api/users/${userId}`);
  const doc = items(res.body.data.verifications).find((v) => String(v.name) === 'Document / ID');
  return { value: Number(doc?.status.value), user: String(res.body.data.status) };
}

describe('document status as the customer reads it', () => {
  it('keeps a document the analysis sent to review in review, not Complete', async () => {
    const created = await server.api('/api/users', { body: { email: 'flagged@example.test', template_id: 'tmpl_document' } });
    expect(created.status).toBe(200);
    const userId = Number(created.body.id);
    const { ctx } = server.verity;
    await ctx.db.transaction().execute(async (trx) => {
      await markDocumentProcessing(trx, ctx.clock, userId);
      await moveDocument(trx, ctx.clock, userId, S.complete_in_review, { attributes: { flags: ['photoshopped'] } });
    });
    const read = await documentStatus(userId);
    expect(read.value).toBe(S.complete_in_review);
    expect(read.user).not.toBe('Verified');
  });

  it('applies the spec rule to what the customer marks: their own workflow moves count as done', () => {
    expect(documentStatusFromWorkflows([S.complete, S.complete_in_review])).toEqual({ status: S.complete, partial: false });
    expect(documentStatusFromWorkflows([S.complete, S.complete_in_review], { reviewHolds: true })).toEqual({ status: S.complete_in_review, partial: false });
    expect(documentStatusFromWorkflows([S.complete, S.complete], { reviewHolds: true })).toEqual({ status: S.complete, partial: false });
  });
});
