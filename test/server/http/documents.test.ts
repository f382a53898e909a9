import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Json, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let jpeg: Buffer;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
  jpeg = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#8899aa' } })
    .jpeg()
    .toBuffer();
});
afterAll(async () => {
  await server.close();
});

async function createUser(template: string): Promise<number> {
  const res = await server.api('/api/users', { body: { email: `d${Math.random()}@example.com`, template_id: template } });
  return Number(res.body.id);
}

async function upload(fields: Record<string, string>, file?: { bytes: Buffer; name: string; type?: string }): Promise<{ status: number; body: Json }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('verify_image', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const res = await fetch(`${server.url}/api/verify/document`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'user-agent': 'tests' },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('POST /api/verify/document', () => {
  it('accepts an image for a user with a single-document template and answers a doc_id at once', async () => {
    const userId = await createUser('tmpl_document');
    const res = await upload({ user_id: String(userId), template_id: 'tmpl_document' }, { bytes: jpeg, name: 'licence.jpg' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(String(res.body.doc_id)).toMatch(/^doc_[A-Za-z0-9_-]+$/);
    const jobs = await server.verity.ctx.db.selectFrom('jobs').select(['queue', 'payload']).execute();
    expect(jobs).toContainEqual({ queue: 'analysis', payload: JSON.stringify({ kind: 'document_job', docId: res.body.doc_id }) });

    const status = await server.api('/api/verify/document/status', { body: { user_id: String(userId), doc_id: res.body.doc_id } });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ success: true, doc_id: res.body.doc_id, document_status: 'Processing' });
  });

  it('checks the file by content, not by its name or declared type', async () => {
    const userId = await createUser('tmpl_document');
    const fake = await upload(
      { user_id: String(userId), template_id: 'tmpl_document' },
      { bytes: Buffer.from('<?php echo 1; ?>'), name: 'photo.jpg', type: 'image/jpeg' },
    );
    expect(fake.status).toBe(422);
    expect(fake.body.errors.verify_image).toBeDefined();
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64');
    expect((await upload({ user_id: String(userId), template_id: 'tmpl_document' }, { bytes: gif, name: 'a.png' })).status).toBe(422);
  });

  it('refuses files of 10 MB or more', async () => {
    const userId = await createUser('tmpl_document');
    const big = Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024)]);
    const res = await upload({ user_id: String(userId), template_id: 'tmpl_document' }, { bytes: big, name: 'big.jpg' });
    expect(res.status).toBe(422);
    expect(res.body.errors.verify_image).toEqual(['The verify image must be smaller than 10 MB.']);
  });

  it('requires every field', async () => {
    const res = await upload({});
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['template_id', 'user_id', 'verify_image']);
  });

  it('answers api_template_error when the template is not the user’s or not a single document check', async () => {
    const other = await createUser('tmpl_email');
    const notAssigned = await upload({ user_id: String(other), template_id: 'tmpl_document' }, { bytes: jpeg, name: 'a.jpg' });
    expect(notAssigned.status).toBe(422);
    expect(notAssigned.body.error_type).toBe('api_template_error');
    const withSelfie = await createUser('tmpl_id_selfie');
    const notSingle = await upload({ user_id: String(withSelfie), template_id: 'tmpl_id_selfie' }, { bytes: jpeg, name: 'a.jpg' });
    expect(notSingle.body.error_type).toBe('api_template_error');
  });

  it('answers api_user_error for an unknown user', async () => {
    const res = await upload({ user_id: '987654', template_id: 'tmpl_document' }, { bytes: jpeg, name: 'a.jpg' });
    expect(res.status).toBe(404);
    expect(res.body.error_type).toBe('api_user_error');
  });
});

describe('POST /api/verify/document/status', () => {
  it('answers invalid_document_id for an unknown doc_id or another user’s job', async () => {
    const userId = await createUser('tmpl_document');
    const created = await upload({ user_id: String(userId), template_id: 'tmpl_document' }, { bytes: jpeg, name: 'a.jpg' });
    for (const body of [
      { user_id: String(userId), doc_id: 'doc_nope' },
      { user_id: String(userId + 1000), doc_id: created.body.doc_id },
    ]) {
      const res = await server.api('/api/verify/document/status', { body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error_type: 'invalid_document_id', error_message: 'Invalid Document Id' });
    }
  });
});

describe('POST /api/user/document/reverify', () => {
  it('assigns the re-verification template (selfie only by default) and returns a fresh magic link', async () => {
    const userId = await createUser('tmpl_id_selfie');
    await server.api(`/api/users/${userId}/verifications`, { method: 'PATCH', body: { verification_id: 'selfie', status: 'complete' } });
    const res = await server.api('/api/user/document/reverify', { body: { user_id: String(userId) } });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.template_id).toBe('tmpl_selfie');
    expect(String(res.body.magic_link)).toContain('/security-verify?expires=');
    const user = await server.api(`/api/users/${userId}`);
    expect(user.body.data.verifications).toEqual([{ id: 22, name: 'Selfie', status: { value: 0, friendly: 'Pending' } }]);
  });

  it('takes another template and refuses unknown users and templates', async () => {
    const userId = await createUser('tmpl_email');
    expect((await server.api('/api/user/document/reverify', { body: { user_id: String(userId), template_id: 'tmpl_contact' } })).body.template_id).toBe(
      'tmpl_contact',
    );
    expect((await server.api('/api/user/document/reverify', { body: { user_id: String(userId), template_id: 'tmpl_x' } })).body.error_type).toBe(
      'api_template_error',
    );
    expect((await server.api('/api/user/document/reverify', { body: { user_id: '99999' } })).body.error_type).toBe('api_user_error');
  });
});
