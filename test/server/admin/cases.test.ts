/**
 * Issue 23: the user page as a case. A reviewer's decision carries its reason to the customer
 * (the `verification.*` webhook's `attributes.review`) and to the audit log (who and why); the
 * method's result rides in that webhook's `attributes.result`; notes are stored, audited and go
 * with the user; the case lists the document's fields against the user's record, the portrait
 * crop and the timeline.
 */
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VerificationStatus } from '../../../server/domain/catalogue.js';
import { markDocumentProcessing, moveDocument } from '../../../server/services/document-jobs.js';
import { insertAnalysedDocumentJob } from '../../helpers/document-jobs.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { items, startTestServer, type Json, type TestServer } from '../../helpers/server.js';
import { AdminClient, ADMIN_EMAIL, signedInAdmin } from '../http/admin/admin-client.js';
import { addEndpoint, settle } from '../webhooks/fixtures.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

let server: TestServer;
let admin: AdminClient;
let receiver: Receiver;
beforeEach(async () => {
  server = await startTestServer({ clock: new ManualClock(new Date('2026-05-10T12:00:00Z')) });
  admin = await signedInAdmin(server);
  receiver = await startReceiver();
  await addEndpoint(server, { url: receiver.url, events: ['verification.completed', 'verification.rejected', 'verification.pending'] });
});
afterEach(async () => {
  await receiver.close();
  await server.close();
});

const EDITED = {
  photoshopped: true,
  mrz_data: [{ valid: true }],
  ai_analysis: { name_match: { full_name: false }, internet_detection: false },
  document_processor: {
    'Full Name': { value: 'JOHN Q PUBLIC', confidence: 91 },
    'Date of Birth': { value: '1990-04-01', confidence: 95 },
    'Document Number': { value: 'D1234567', confidence: 97 },
    'Portrait Position': { value: { x1: 20, y1: 30, x2: 60, y2: 80 }, confidence: 88 },
  },
};

async function createUser(fields: Record<string, unknown> = {}): Promise<number> {
  const res = await server.api('/api/users', {
    body: { email: 'ada@example.test', first_name: 'Ada', last_name: 'Lovelace', template_id: 'tmpl_document', reference_id: 'cust-7', ...fields },
  });
  expect(res.status, res.text).toBe(200);
  return Number(res.body.id);
}

/** The analysis read a document (with a real image stored) and sent it to review as edited. */
async function flaggedDocument(userId: number): Promise<string> {
  const { ctx } = server.verity;
  const docId = `doc_${userId}`;
  const { blobKey } = await insertAnalysedDocumentJob(ctx.db, { userId, docId, content: EDITED, size: 1, now: ctx.clock.now() });
  const image = await sharp({ create: { width: 200, height: 120, channels: 3, background: '#88aacc' } })
    .jpeg()
    .toBuffer();
  await ctx.blobs.put(blobKey, image, 'image/jpeg');
  await ctx.db.transaction().execute(async (trx) => {
    await markDocumentProcessing(trx, ctx.clock, userId);
    await moveDocument(trx, ctx.clock, userId, VerificationStatus.complete_in_review, {
      remarks: null,
      attributes: { verify_documents: [{ doc_id: docId, side: 'front', document_status: 'Success', reason: null, flags: ['photoshopped'] }] },
    });
  });
  return docId;
}

/** The webhooks of `type` the receiver got about the customer's user `reference`, once `n` have come. */
async function webhooks(type: string, reference: string, n = 1): Promise<Json[]> {
  const matching = () =>
    receiver.received.map((r) => JSON.parse(r.body) as Json).filter((p) => String(p.type) === type && String(p.data.reference_id) === reference);
  for (let i = 0; i < 50 && matching().length < n; i++) {
    await settle(server);
    if (matching().length < n) await receiver.waitFor(receiver.received.length + 1, 200).catch(() => undefined);
  }
  expect(matching()).toHaveLength(n);
  // The delivery's outcome is written after the receiver answered.
  await settle(server);
  return matching();
}

const documentEntry = (payload: Json): Json => items(payload.data.verifications).find((v) => Number(v.id) === 3)!;

describe('a reviewer decision', () => {
  it('reaches the customer in the webhook with its reason and the result, and the audit log with who and why', async () => {
    const userId = await createUser();
    await flaggedDocument(userId);
    const inQueue = await admin.request('GET', '/admin/api/reviews?flag=photoshopped');
    expect(items(inQueue.body.data).map((r) => Number(r.user.id))).toEqual([userId]);

    const res = await admin.request('POST', `/admin/api/users/${userId}/verifications`, {
      method: 'document_id',
      status: 'complete',
      reason: 'Edited only where the holder signed: the document is genuine.',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const [completed] = await webhooks('verification.completed', 'cust-7');
    expect(completed!.type).toBe('verification.completed');
    expect(completed!.data.reference_id).toBe('cust-7');
    const entry = documentEntry(completed!);
    expect(entry.status.friendly).toBe('Complete');
    expect(entry.attributes.review).toMatchObject({ decision: 'approved', reason: 'Edited only where the holder signed: the document is genuine.' });
    const result = entry.attributes.result;
    expect(result.status).toBe('complete');
    expect(items(result.checks).find((c) => String(c.name) === 'photoshopped')).toMatchObject({ outcome: 'flagged' });
    expect(items(result.documents)[0]!.document_processor['Document Number'].value).toBe('D1234567');
    expect(result.href).toBe(`/api/users/${userId}/verifications/document_id`);
    // A signed image URL would expire before a retried delivery: none rides in the webhook.
    expect(JSON.stringify(result)).not.toContain('signature=');

    const audit = await admin.request('GET', `/admin/api/audit?target_type=user&target_id=${userId}`);
    const record = items(audit.body.data).find((a) => String(a.action) === 'verification.complete')!;
    expect(record.admin_email).toBe(ADMIN_EMAIL);
    expect(record.details).toMatchObject({
      method: 'document_id',
      from: 'complete_in_review',
      to: 'complete',
      reason: 'Edited only where the holder signed: the document is genuine.',
    });
    expect(items((await admin.request('GET', '/admin/api/reviews')).body.data)).toHaveLength(0);
  });

  it('refuses a rejection or a redo without a reason, changing nothing', async () => {
    const userId = await createUser();
    await flaggedDocument(userId);
    for (const status of ['rejected', 'reset']) {
      for (const reason of [undefined, '', '   ']) {
        const res = await admin.request('POST', `/admin/api/users/${userId}/verifications`, { method: 3, status, ...(reason === undefined ? {} : { reason }) });
        expect(res.status).toBe(422);
        expect(res.body.error_type).toBe('api_validation_error');
        expect(res.body.errors.reason).toBeDefined();
      }
    }
    const user = await server.api(`/api/users/${userId}`);
    expect(items(user.body.data.verifications)[0]!.status.value).toBe(VerificationStatus.complete_in_review);
  });

  it('announces a redo as verification.pending with the reason, and a rejection as verification.rejected', async () => {
    const userId = await createUser();
    await flaggedDocument(userId);
    const redo = await admin.request('POST', `/admin/api/users/${userId}/verifications`, {
      method: 'document_id',
      status: 'reset',
      reason: 'The photo is blurred: take it again in daylight.',
    });
    expect(redo.status, JSON.stringify(redo.body)).toBe(200);
    // The analysis's own pending came first; the redo is the second.
    const [, pending] = await webhooks('verification.pending', 'cust-7', 2);
    expect(documentEntry(pending!).attributes.review).toMatchObject({ decision: 'redo_requested', reason: 'The photo is blurred: take it again in daylight.' });

    const other = await createUser({ email: 'grace@example.test', reference_id: 'cust-8' });
    await flaggedDocument(other);
    await admin.request('POST', `/admin/api/users/${other}/verifications`, {
      method: 'document_id',
      status: 'rejected',
      reason: 'The portrait was pasted in.',
    });
    const [rejected] = await webhooks('verification.rejected', 'cust-8');
    expect(documentEntry(rejected!).attributes.review).toMatchObject({ decision: 'rejected', reason: 'The portrait was pasted in.' });
    // The customer's own read of the result shows the reason too.
    const read = await server.api(`/api/users/${other}/verifications/document_id`);
    expect(read.body.reason).toBe('The portrait was pasted in.');
  });
});

describe('the case', () => {
  it('lists the document fields against the record, marks the ones that disagree, and serves the portrait crop', async () => {
    const userId = await createUser();
    await server.verity.ctx.db.updateTable('users').set({ birthday: '1990-04-01' }).where('id', '=', userId).execute();
    const docId = await flaggedDocument(userId);
    const res = await admin.request('GET', `/admin/api/users/${userId}/case`);
    expect(res.status).toBe(200);
    const [doc] = items(res.body.data.documents);
    expect(doc!.doc_id).toBe(docId);
    expect(doc!.side).toBe('front');
    const field = (name: string) => items(doc!.fields).find((f) => String(f.name) === name)!;
    expect(field('Full Name')).toMatchObject({ value: 'JOHN Q PUBLIC', record: 'Ada Lovelace', agrees: false });
    expect(field('Date of Birth')).toMatchObject({ record: '1990-04-01', agrees: true });
    expect(field('Document Number')).toMatchObject({ record: null, agrees: null });
    expect(items(doc!.fields).some((f) => String(f.name) === 'Portrait Position')).toBe(false);

    const crop = await fetch(server.url + String(doc!.portrait_url), { headers: { cookie: admin.cookie! } });
    expect(crop.status).toBe(200);
    const meta = await sharp(Buffer.from(await crop.arrayBuffer())).metadata();
    // The 40x50 box grown by a quarter on each side, rounded outwards: 60x76.
    expect([meta.width, meta.height]).toEqual([60, 76]);
  });

  it('keeps notes with their author, audits them without their text, and deletes them with the user', async () => {
    const userId = await createUser();
    const empty = await admin.request('POST', `/admin/api/users/${userId}/notes`, { body: '  ' });
    expect(empty.status).toBe(422);
    const added = await admin.request('POST', `/admin/api/users/${userId}/notes`, { body: 'Called the customer: expected a new passport.' });
    expect(added.status).toBe(201);
    const kase = await admin.request('GET', `/admin/api/users/${userId}/case`);
    expect(items(kase.body.data.notes)).toMatchObject([{ author: ADMIN_EMAIL, body: 'Called the customer: expected a new passport.' }]);
    const audit = await admin.request('GET', `/admin/api/audit?action=user.note`);
    const [record] = items(audit.body.data);
    expect(record!.details).toEqual({ note_id: added.body.data.id });
    expect(JSON.stringify(audit.body)).not.toContain('passport');

    expect((await admin.request('DELETE', `/admin/api/users/${userId}`)).status).toBe(200);
    const left = await server.verity.ctx.db.withTables<{ review_notes: { user_id: number } }>().selectFrom('review_notes').selectAll().execute();
    expect(left).toHaveLength(0);
    expect((await admin.request('POST', `/admin/api/users/${userId}/notes`, { body: 'late' })).status).toBe(404);
  });

  it('shows the timeline: events, their deliveries and the decisions with who and why', async () => {
    const userId = await createUser();
    await flaggedDocument(userId);
    await admin.request('POST', `/admin/api/users/${userId}/verifications`, { method: 'document_id', status: 'rejected', reason: 'Pasted portrait.' });
    await webhooks('verification.rejected', 'cust-7');
    const res = await admin.request('GET', `/admin/api/users/${userId}/case`);
    const timeline = items(res.body.data.timeline);
    expect(timeline.find((t) => String(t.kind) === 'decision')).toMatchObject({ what: 'verification.rejected', by: ADMIN_EMAIL, method: 'Document / ID' });
    expect(String(timeline.find((t) => String(t.kind) === 'decision')!.detail)).toContain('Pasted portrait.');
    expect(timeline.find((t) => String(t.kind) === 'event' && String(t.what) === 'verification.rejected')).toBeDefined();
    const delivery = timeline.find((t) => String(t.kind) === 'delivery' && String(t.what) === 'verification.rejected');
    expect(delivery).toMatchObject({ by: receiver.url });
    expect(String(delivery!.detail)).toContain('HTTP 200');
  });

  it('answers 404 for an unknown user and refuses anonymous readers', async () => {
    expect((await admin.request('GET', '/admin/api/users/999999/case')).status).toBe(404);
    const anonymous = new AdminClient(server);
    expect((await anonymous.request('GET', '/admin/api/users/1/case')).status).toBe(401);
  });
});
