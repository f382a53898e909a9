/**
 * Issue 18, point 5: the admin routes validated the body before checking the session (the check
 * was a preHandler, which runs after validation), so an anonymous POST with a bad body got a 422
 * listing the route's field names. Every guard (admin session, CSRF, end-user session) now runs
 * when the request arrives, before its body is parsed or validated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { signedInAdmin } from './admin/admin-client.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(async () => {
  await server.close();
});

async function post(path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const BAD_BODY = JSON.stringify({ url: 42, events: 'not a list' });

describe('guards come before body validation', () => {
  it('answers an anonymous admin POST with a bad body 401, naming no field', async () => {
    const sameOrigin = { origin: server.config.baseUrl };
    const invalid = await post('/admin/api/webhooks/endpoints', BAD_BODY, sameOrigin);
    const malformed = await post('/admin/api/webhooks/endpoints', '{"url": ', sameOrigin);

    for (const answer of [invalid, malformed]) {
      expect(answer.status).toBe(401);
      expect(answer.body.error_type).toBe('api_auth_error');
      expect(answer.body).not.toHaveProperty('errors');
    }
  });

  it('answers a cross-site POST with a bad body 403 on the admin, sign-in, invitation and signup routes', async () => {
    const admin = await signedInAdmin(server);
    const crossSite = { origin: 'https://evil.example' };
    const signedInCrossSite = await post('/admin/api/webhooks/endpoints', BAD_BODY, { ...crossSite, cookie: admin.cookie! });
    const signIn = await post('/admin/api/session', '{}', crossSite);
    const invite = await post('/admin/api/invites/accept', '{}', crossSite);
    const signup = await post('/signup/api/start', '{}', crossSite);

    for (const answer of [signedInCrossSite, signIn, invite, signup]) {
      expect(answer.status).toBe(403);
      expect(answer.body.error_type).toBe('api_forbidden_error');
      expect(answer.body).not.toHaveProperty('errors');
    }
  });

  it('answers an end-user session call without a session and with a bad body 401, naming no field', async () => {
    const invalid = await post('/session/methods/knowledge', JSON.stringify({ answers: 'nope' }));
    const malformed = await post('/session/methods/geolocation', '{"latitude": ');

    for (const answer of [invalid, malformed]) {
      expect(answer.status).toBe(401);
      expect(answer.body).not.toHaveProperty('errors');
    }
  });
});
