/**
 * Issue 18, point 5: answers that carry personal data must not be kept by any cache (a shared
 * proxy, the browser's back-forward or disk cache). Every answer of the customer API, the end-user
 * session API and the admin API says `Cache-Control: no-store`, errors included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createTemplate, createUser, local } from '../session/fixtures.js';
import { AdminClient, signedInAdmin } from './admin/admin-client.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(async () => {
  await server.close();
});

interface Answer {
  name: string;
  status: number;
  cacheControl: string | null;
}

async function answer(name: string, response: Promise<Response>): Promise<Answer> {
  const res = await response;
  await res.arrayBuffer();
  return { name, status: res.status, cacheControl: res.headers.get('cache-control') };
}

function expectNoStore(answers: Answer[], statuses: number[]): void {
  expect(answers.map((a) => a.status)).toEqual(statuses);
  for (const a of answers) expect({ name: a.name, cacheControl: a.cacheControl }).toEqual({ name: a.name, cacheControl: 'no-store' });
}

describe('Cache-Control: no-store on answers with personal data', () => {
  it('on the customer API (/api/users*), errors included', async () => {
    const created = await server.api('/api/users', { body: { email: 'cached@example.com' } });
    const id = String(created.body.id);
    const api = (path: string, init: RequestInit = {}, key: string | null = server.apiKey) =>
      fetch(server.url + path, {
        ...init,
        headers: { 'user-agent': 'tests', 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      });

    const answers = [
      await answer('create', api('/api/users', { method: 'POST', body: JSON.stringify({ email: 'cached2@example.com' }) })),
      await answer('list', api('/api/users')),
      await answer('one', api(`/api/users/${id}`)),
      await answer('by reference', api('/api/users/ref/nope')),
      await answer('verify link', api(`/api/users/${id}/verify-url`, { method: 'POST', body: '{}' })),
      await answer('missing', api('/api/users/999999')),
      await answer('invalid', api('/api/users', { method: 'POST', body: JSON.stringify({ email: 'not an e-mail' }) })),
      await answer('no key', api('/api/users', {}, null)),
      await answer('encoded path', api('/%61pi/users')),
    ];

    expect(created.headers.get('cache-control')).toBe('no-store');
    expectNoStore(answers, [200, 200, 200, 404, 200, 404, 422, 401, 200]);
  });

  it('on the end-user session API (/session*), errors included', async () => {
    const template = await createTemplate(server, 'tmpl_cache', [1]);
    const { link } = await createUser(server, { email: 'session-cache@example.com', template_id: template });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    const started = await post('/session/start', { link: local(server, link) });
    const { session_token: token } = (await started.json()) as { session_token: string };
    const answers = [
      { name: 'start', status: started.status, cacheControl: started.headers.get('cache-control') },
      await answer('view', fetch(`${server.url}/session`, { headers: { 'x-verity-session': token } })),
      await answer('no session', fetch(`${server.url}/session`)),
      await answer('bad link', post('/session/start', { link: 'https://x.example/security-verify?expires=1&key=k&signature=00' })),
      await answer('no CSRF token', post('/session/methods/email/send', {}, { 'x-verity-session': token })),
    ];

    expectNoStore(answers, [200, 200, 401, 403, 403]);
  });

  it('on the admin API (/admin/api*), errors included', async () => {
    const admin = await signedInAdmin(server);
    const anonymous = new AdminClient(server);
    const request = async (name: string, client: AdminClient, method: string, path: string, body?: unknown): Promise<Answer> => {
      const res = await client.request(method, path, body);
      return { name, status: res.status, cacheControl: res.headers.get('cache-control') };
    };

    const answers = [
      await request('users', admin, 'GET', '/admin/api/users'),
      await request('admins', admin, 'GET', '/admin/api/admins'),
      await request('overview', admin, 'GET', '/admin/api/overview'),
      await request('missing user', admin, 'GET', '/admin/api/users/999999'),
      await request('invalid body', admin, 'POST', '/admin/api/webhooks/endpoints', { url: 42 }),
      await request('anonymous', anonymous, 'GET', '/admin/api/users'),
      await request('wrong password', anonymous, 'POST', '/admin/api/session', { email: 'root@example.com', password: 'wrong' }),
    ];

    expectNoStore(answers, [200, 200, 200, 404, 422, 401, 401]);
  });
});
