import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../helpers/manual-clock.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { AdminClient, addAdmin, ADMIN_PASSWORD } from './admin-client.js';

let server: TestServer;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock(new Date());
  server = await startTestServer({ clock });
  await addAdmin(server);
});
afterEach(async () => {
  await server.close();
});

describe('admin sessions', () => {
  it('sign in sets an HttpOnly, SameSite=Strict cookie scoped to /admin and opens the admin routes', async () => {
    const admin = new AdminClient(server);
    const res = await admin.login();
    expect(res.status).toBe(200);
    expect(res.body.admin.email).toBe('root@example.com');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^verity_admin=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/admin/);
    expect(cookie).not.toMatch(/Secure/);
    expect((await admin.request('GET', '/admin/api/webhooks/endpoints')).status).toBe(200);
    // The token is stored only hashed.
    const [row] = await server.verity.ctx.db.selectFrom('admin_sessions').selectAll().execute();
    expect(cookie).not.toContain(row!.token_hash);
  });

  it('refuses a wrong password or an unknown e-mail with 401', async () => {
    const admin = new AdminClient(server);
    expect((await admin.login('root@example.com', 'wrong')).status).toBe(401);
    expect((await admin.login('nobody@example.com', ADMIN_PASSWORD)).status).toBe(401);
    expect(admin.cookie).toBeUndefined();
  });

  it('admin routes are not reachable with an API key, without a session, or with a forged cookie', async () => {
    expect((await server.api('/admin/api/webhooks/endpoints')).status).toBe(401);
    const anon = new AdminClient(server);
    expect((await anon.request('GET', '/admin/api/webhooks/deliveries')).status).toBe(401);
    anon.cookie = 'verity_admin=' + 'A'.repeat(43);
    const res = await anon.request('GET', '/admin/api/webhooks/deliveries');
    expect(res.status).toBe(401);
    expect(res.body.error_type).toBe('api_auth_error');
  });

  it('refuses state-changing requests from another origin or without origin information (CSRF)', async () => {
    const admin = new AdminClient(server);
    await admin.login();
    const body = { url: 'https://hooks.example.com/in' };
    admin.origin = 'https://evil.example';
    expect((await admin.request('POST', '/admin/api/webhooks/endpoints', body)).status).toBe(403);
    admin.origin = undefined;
    expect((await admin.request('POST', '/admin/api/webhooks/endpoints', body)).status).toBe(403);
    expect((await admin.request('POST', '/admin/api/webhooks/endpoints', body, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await admin.request('POST', '/admin/api/webhooks/endpoints', body, { 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    admin.origin = server.config.baseUrl;
    expect((await admin.request('POST', '/admin/api/webhooks/endpoints', body)).status).toBe(201);
    // Sign-in itself is protected too (login CSRF).
    const other = new AdminClient(server);
    other.origin = 'https://evil.example';
    expect((await other.login()).status).toBe(403);
  });

  it('a session ends after 30 idle minutes, and on sign-out', async () => {
    const admin = new AdminClient(server);
    await admin.login();
    clock.advance(29 * 60_000);
    expect((await admin.request('GET', '/admin/api/session')).status).toBe(200);
    clock.advance(29 * 60_000);
    expect((await admin.request('GET', '/admin/api/session')).status).toBe(200);
    clock.advance(31 * 60_000);
    expect((await admin.request('GET', '/admin/api/session')).status).toBe(401);

    await admin.login();
    expect((await admin.request('DELETE', '/admin/api/session')).status).toBe(200);
    expect(admin.cookie).toBeUndefined();
    expect(await server.verity.ctx.db.selectFrom('admin_sessions').selectAll().execute()).toHaveLength(0);
  });

  it('spaces one client’s failed tries on an account and lets the right password in once the wait is over', async () => {
    const admin = new AdminClient(server);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await admin.login('root@example.com', `guess-${i}`)).status);
    const waited = await admin.login();
    // Three free failures, then every try in the same clock second waits.
    expect(statuses).toEqual([401, 401, 401, ...Array<number>(8).fill(429)]);
    expect(waited.status).toBe(429);
    clock.advance(Number(waited.headers.get('retry-after')) * 1000);
    expect((await admin.login()).status).toBe(200);
  });
});

describe('admin session cookie on https', () => {
  it('is Secure when the base URL is https', async () => {
    const https = await startTestServer({ env: { VERITY_BASE_URL: 'https://verity.test' } });
    try {
      await addAdmin(https);
      const res = await new AdminClient(https).login();
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
    } finally {
      await https.close();
    }
  });
});
