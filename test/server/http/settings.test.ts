import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { items, startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(async () => {
  await server.close();
});

describe('GET /api/settings/verifications', () => {
  it('maps every method and status to a stable key and numeric id', async () => {
    const res = await server.api('/api/settings/verifications');
    expect(res.status).toBe(200);
    const methods = items(res.body.data.verifications);
    expect(methods).toContainEqual({ id: 3, key: 'document_id', name: 'Document / ID' });
    expect(methods).toContainEqual({ id: 7, key: 'secure_card', name: 'Secure Card' });
    expect(methods).toContainEqual({ id: 20, key: 'liveness', name: 'Liveness' });
    expect(methods).toContainEqual({ id: 21, key: 'knowledge', name: 'Knowledge' });
    expect(items(res.body.data.statuses).map((s) => [s.key, s.id])).toEqual([
      ['assigned', 0],
      ['processing', 1],
      ['complete', 2],
      ['rejected', 3],
      ['complete_in_review', 4],
      ['reset', 5],
      ['removed', 6],
    ]);
  });
});

describe('GET /api/settings/workflow', () => {
  it('lists workflows with id, encoded_id and raw_id', async () => {
    const res = await server.api('/api/settings/workflow');
    expect(res.status).toBe(200);
    const flows = items(res.body.data);
    expect(flows.length).toBeGreaterThan(0);
    for (const f of flows) {
      expect(String(f.id)).toMatch(/^flow_/);
      expect(typeof f.encoded_id).toBe('string');
      expect(typeof f.raw_id).toBe('number');
    }
  });
});

describe('GET /api/settings/templates/verifications', () => {
  it('answers an array of {id, name, types}', async () => {
    const res = await server.api('/api/settings/templates/verifications');
    expect(res.status).toBe(200);
    const templates = items(res.body);
    expect(templates).toContainEqual({ id: expect.any(Number), name: 'tmpl_id_selfie', types: ['Document / ID', 'Selfie'] });
    expect(templates).toContainEqual({ id: expect.any(Number), name: 'tmpl_email', types: ['Email'] });
  });

  it('refuses an Accept header that rules out JSON', async () => {
    const res = await server.api('/api/settings/templates/verifications', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(406);
    expect(res.body.error_type).toBe('api_invalid_error');
  });
});

describe('POST /api/verify-credentials', () => {
  it('confirms a good key with its name', async () => {
    const res = await server.api('/api/verify-credentials', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(true);
    expect(res.body.key.name).toBe('test');
  });

  it('answers 401 for a wrong key', async () => {
    const res = await server.api('/api/verify-credentials', { method: 'POST', key: 'vk_live_wrong' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error_type: 'api_auth_error', error_message: 'Unauthenticated.' });
  });
});
