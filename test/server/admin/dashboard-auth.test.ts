import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { AdminClient, addAdmin } from '../http/admin/admin-client.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await addAdmin(server);
});
afterAll(async () => {
  await server.close();
});

/** Every dashboard JSON route, with a body that would be valid for a signed-in admin. */
const ROUTES: [string, string, unknown?][] = [
  ['GET', '/admin/api/overview'],
  ['GET', '/admin/api/users'],
  ['POST', '/admin/api/users', { email: 'a@example.com' }],
  ['GET', '/admin/api/users/1'],
  ['PATCH', '/admin/api/users/1', { first_name: 'X' }],
  ['DELETE', '/admin/api/users/1'],
  ['POST', '/admin/api/users/1/verifications', { method: 'email', status: 'complete' }],
  ['POST', '/admin/api/users/1/link', {}],
  ['GET', '/admin/api/reviews?flag=photoshopped'],
  ['GET', '/admin/api/templates'],
  ['POST', '/admin/api/templates', { name: 'tmpl_x', label: 'X', methods: ['email'] }],
  ['PATCH', '/admin/api/templates/1', { label: 'Y' }],
  ['DELETE', '/admin/api/templates/1'],
  ['PUT', '/admin/api/templates/roles', { default_template: null }],
  ['POST', '/admin/api/workflows', { name: 'W', document_types: ['passport'] }],
  ['DELETE', '/admin/api/workflows/flow_x'],
  ['GET', '/admin/api/settings'],
  ['PATCH', '/admin/api/settings', { account_name: 'X' }],
  ['PUT', '/admin/api/knowledge', { questions: [], ask: 1, pass_threshold: 1, max_attempts: 1 }],
  ['GET', '/admin/api/api-keys'],
  ['POST', '/admin/api/api-keys', { name: 'k' }],
  ['DELETE', '/admin/api/api-keys/1'],
  ['GET', '/admin/api/outbox'],
  ['GET', '/admin/api/audit'],
  ['GET', '/admin/api/admins'],
  ['POST', '/admin/api/admins/invites', { email: 'b@example.com' }],
  ['DELETE', '/admin/api/admins/2'],
  ['GET', '/admin/api/me/totp'],
  ['POST', '/admin/api/me/totp'],
  ['POST', '/admin/api/me/totp/enable', { code: '123456' }],
  ['DELETE', '/admin/api/me/totp', { code: '123456' }],
  ['POST', '/admin/api/branding/logo', {}],
  ['GET', '/admin/api/notices'],
  ['GET', '/admin/api/webhooks/deliveries'],
  ['GET', `/admin/api/images/x?expires=${2 ** 31}&sig=${'0'.repeat(64)}`],
];

describe('dashboard routes: who may call them', () => {
  it('refuse every route without an admin session (401), and the state of the database does not change', async () => {
    const anon = new AdminClient(server);
    for (const [method, path, body] of ROUTES) {
      const res = await anon.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error_type).toBe('api_auth_error');
    }
    expect(await server.verity.ctx.db.selectFrom('users').select('id').execute()).toEqual([]);
  });

  it('refuse an API key (Bearer) on every route: keys are not admin credentials', async () => {
    for (const [method, path, body] of ROUTES) {
      const res = await server.api(path, { method, body });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('refuse an end-user session: its cookie and token are not admin credentials', async () => {
    const created = await server.api('/api/users', { method: 'POST', body: { email: 'enduser@example.com', template_id: 'tmpl_email' } });
    expect(created.status).toBe(200);
    const start = await fetch(`${server.url}/session/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ link: String(created.body.magic_link) }),
    });
    expect(start.status).toBe(200);
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
    const token = String(((await start.json()) as { session_token: string }).session_token);
    expect(cookie).toMatch(/=/);
    expect(token.length).toBeGreaterThan(20);
    const user = new AdminClient(server);
    user.cookie = cookie;
    for (const [method, path, body] of ROUTES) {
      const res = await user.request(method, path, body, { 'x-verity-session': token });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('refuse cross-site requests of a signed-in admin: writes by Origin/Fetch Metadata, reads by Fetch Metadata', async () => {
    const admin = new AdminClient(server);
    expect((await admin.login()).status).toBe(200);
    for (const [method, path, body] of ROUTES) {
      const res = await admin.request(method, path, body, { 'sec-fetch-site': 'cross-site' });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    admin.origin = 'https://evil.example';
    for (const [method, path, body] of ROUTES.filter(([m]) => m !== 'GET')) {
      const res = await admin.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    admin.origin = undefined;
    for (const [method, path, body] of ROUTES.filter(([m]) => m !== 'GET')) {
      const res = await admin.request(method, path, body);
      expect(res.status, `${method} ${path} without Origin`).toBe(403);
    }
    // And a same-origin read works.
    admin.origin = server.config.baseUrl;
    expect((await admin.request('GET', '/admin/api/overview', undefined, { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('serves the dashboard page with a strict CSP that forbids framing, and unknown /admin/api paths as JSON 404', async () => {
    const page = await fetch(`${server.url}/admin/users`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/unsafe-eval/);
    // Only style attributes may be inline (the overview's charts size their SVG by them); scripts and <style> need the nonce.
    const directives = new Map(csp.split(';').map((d) => [d.trim().split(/\s+/)[0], d.trim().split(/\s+/).slice(1)] as const));
    expect(directives.get('script-src')).not.toContain("'unsafe-inline'");
    expect(directives.get('style-src')).not.toContain("'unsafe-inline'");
    expect(directives.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
    const missing = await fetch(`${server.url}/admin/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/json/);
  });
});
