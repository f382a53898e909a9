import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument, analyseFrames, analyseSelfie } from '../../../server/analysis/index.js';
import { licenceBack, photograph } from '../../fixtures/documents.js';
import { IDENTITIES } from '../../fixtures/identities.js';
import { startTestServer, type Json, type TestServer } from '../../helpers/server.js';

/**
 * Spec 4.13/4.14 end to end with the real analysis engine (in this thread, so the test controls
 * it): upload through the API, the queue runs the analysis, the status endpoint answers it.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ analysis: { analyseDocument, analyseSelfie, analyseFrames } });
});
afterAll(async () => {
  await server.close();
});

async function upload(userId: number, bytes: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.set('user_id', String(userId));
  form.set('template_id', 'tmpl_document');
  form.set('verify_image', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${server.url}/api/verify/document`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'user-agent': 'tests' },
    body: form,
  });
  const body = (await res.json()) as { doc_id: string };
  expect(res.status).toBe(200);
  return body.doc_id;
}

async function settle(userId: number, docId: string): Promise<Json> {
  await server.verity.ctx.queue.whenIdle();
  return (await server.api('/api/verify/document/status', { body: { user_id: String(userId), doc_id: docId } })).body;
}

describe('document jobs analysed for real', () => {
  it('reads a licence back (PDF417) into document_processor, stores a signed image, and completes the verification', async () => {
    const id = IDENTITIES[0]!;
    const created = await server.api('/api/users', {
      body: { email: 'anna@example.com', first_name: 'Anna', last_name: 'Eriksson', template_id: 'tmpl_document' },
    });
    const userId = Number(created.body.id);
    const photo = await photograph(await licenceBack(id), { angle: 1.5 });
    const docId = await upload(userId, photo, 'back.jpg');

    const status = await settle(userId, docId);
    expect(status.success).toBe(true);
    expect(status.document_status).toBe('Success');
    const data = status.document_data;
    expect(data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const content = data.content;
    expect(content.document_processor['Document Number'].value).toBe(id.dlNumber);
    expect(content.document_processor['Date of Birth'].value).toBe(id.dob);
    expect(typeof content.document_processor['Date of Birth'].confidence).toBe('number');
    expect(content.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(content.original_name).toBe('back.jpg');
    expect(content.type).toBe('image/jpeg');

    // The stored image is reachable through its signed URL and carries no EXIF.
    const url = new URL(String(content.url));
    const image = await fetch(server.url + url.pathname + url.search);
    expect(image.status).toBe(200);
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(meta.exif).toBeUndefined();

    const user = await server.api(`/api/users/${userId}`);
    expect(user.body.data.verifications[0].status.value).toBe(2);
    expect(user.body.data.status).toBe('Verified');
    const events = await server.verity.ctx.db.selectFrom('events').select('type').where('user_id', '=', userId).orderBy('occurred_at').orderBy('id').execute();
    expect(events.map((e) => e.type)).toEqual(['verification.pending', 'verification.completed', 'user.status.changed']);
  }, 120_000);

  it('fails a blurred photo with a reason naming the problem, and rejects the verification', async () => {
    const created = await server.api('/api/users', { body: { email: 'blur@example.com', template_id: 'tmpl_document' } });
    const userId = Number(created.body.id);
    const photo = await photograph(await licenceBack(IDENTITIES[1]!), { angle: 1, blur: 8 });
    const docId = await upload(userId, photo, 'blurry.jpg');
    const status = await settle(userId, docId);
    expect(status).toMatchObject({ success: false, doc_id: docId, document_status: 'Failed' });
    expect(String(status.reason).toLowerCase()).toContain('blur');
    const user = await server.api(`/api/users/${userId}`);
    expect(user.body.data.verifications[0].status.value).toBe(3);
  }, 120_000);
});
