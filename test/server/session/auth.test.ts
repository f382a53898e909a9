import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { writeSetting } from '../../../server/store/repos/settings-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createTemplate, createUser, local } from './fixtures.js';

let server: TestServer;
let userId: number;
let link: string;

beforeEach(async () => {
  server = await startTestServer();
  const template = await createTemplate(server, 'tmpl_auth', [1]);
  ({ id: userId, link } = await createUser(server, { email: 'auth@example.com', template_id: template }));
});
afterEach(async () => {
  await server.close();
});

interface Started {
  cookie: string;
  setCookie: string;
  token: string;
  csrf: string;
}

async function start(headers: Record<string, string> = {}): Promise<Started> {
  const res = await fetch(`${server.url}/session/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ link: local(server, link) }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { session_token: string; session: { csrf_token: string } };
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { setCookie, cookie: setCookie.split(';')[0]!, token: body.session_token, csrf: body.session.csrf_token };
}

function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  return fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

async function errorType(res: Response): Promise<string> {
  return ((await res.json()) as { error_type: string }).error_type;
}

describe('session authentication', () => {
  it('sets an HttpOnly, SameSite=Lax cookie scoped to /session that authenticates calls', async () => {
    const s = await start();
    expect(s.setCookie).toMatch(/^verity_session=[A-Za-z0-9_-]{43};/);
    expect(s.setCookie).toMatch(/HttpOnly/i);
    expect(s.setCookie).toMatch(/SameSite=Lax/i);
    expect(s.setCookie).toMatch(/Path=\/session/i);
    expect(s.setCookie).not.toMatch(/Secure/i);
    expect(s.cookie.split('=')[1]).toBe(s.token);
    const res = await call('/session', { headers: { cookie: s.cookie } });
    expect(res.status).toBe(200);
  });

  it('marks the cookie Secure when the service runs on https', async () => {
    await server.close();
    server = await startTestServer({ env: { VERITY_BASE_URL: 'https://verity.test' } });
    ({ link } = await createUser(server, { email: 's@example.com' }));
    expect((await start()).setCookie).toMatch(/; Secure/i);
  });

  it('stores only a hash of the session token', async () => {
    const s = await start();
    const rows = await server.verity.ctx.db.withTables<{ user_sessions: { token_hash: string } }>().selectFrom('user_sessions').select('token_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(s.token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers 401 without a session, with a wrong token, and never accepts the API key', async () => {
    expect((await call('/session')).status).toBe(401);
    const wrong = await call('/session', { headers: { 'X-Verity-Session': 'x'.repeat(43) } });
    expect(wrong.status).toBe(401);
    expect(await errorType(wrong)).toBe('session_auth_error');
    expect((await call('/session', { headers: { authorization: `Bearer ${server.apiKey}` } })).status).toBe(401);
  });

  it('expires after 1 hour idle, and activity keeps it alive', async () => {
    const clock = server.clock as ManualClock;
    const s = await start();
    const h = { 'X-Verity-Session': s.token };
    clock.advance(50 * 60 * 1000);
    expect((await call('/session', { headers: h })).status).toBe(200);
    clock.advance(50 * 60 * 1000);
    expect((await call('/session', { headers: h })).status).toBe(200);
    clock.advance(60 * 60 * 1000 + 1000);
    expect((await call('/session', { headers: h })).status).toBe(401);
  });

  it('refuses the session once the user is banned or deleted', async () => {
    const s = await start();
    const h = { 'X-Verity-Session': s.token };
    expect((await server.api(`/api/users/${userId}`, { method: 'PATCH', body: { status: 'Banned' } })).status).toBe(200);
    expect((await call('/session', { headers: h })).status).toBe(401);
    // Unbanning does not bring back a revoked session.
    await server.api(`/api/users/${userId}`, { method: 'PATCH', body: { status: 'Active' } });
    expect((await call('/session', { headers: h })).status).toBe(401);
    const again = await start();
    expect((await server.api(`/api/users/${userId}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call('/session', { headers: { 'X-Verity-Session': again.token } })).status).toBe(401);
  });

  it('deletes a user’s dead sessions a day after they stopped working, when a new one starts', async () => {
    const clock = server.clock as ManualClock;
    await start();
    await start();
    const count = async () =>
      (await server.verity.ctx.db.withTables<{ user_sessions: { id: number } }>().selectFrom('user_sessions').select('id').execute()).length;
    expect(await count()).toBe(2);
    clock.advance(2 * 3600 * 1000);
    await start();
    expect(await count()).toBe(3);
    clock.advance(24 * 3600 * 1000);
    await start();
    expect(await count()).toBe(2);
  });

  it('revokes one session on logout', async () => {
    const s = await start();
    const h = { 'X-Verity-Session': s.token, 'X-Verity-CSRF': s.csrf };
    expect((await call('/session/logout', { method: 'POST', headers: h })).status).toBe(204);
    expect((await call('/session', { headers: h })).status).toBe(401);
  });
});

describe('abuse limits', () => {
  it('limits session starts per IP to 30 a minute (429 with Retry-After)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await call('/session/start', { method: 'POST', body: { link: 'https://x.example/security-verify?expires=1&key=k&signature=00' } });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(await errorType(res)).toBe('api_rate_limit_error');
      }
    }
    expect(statuses.slice(0, 30).every((s) => s === 403)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('counts only failed starts: end users sharing one address (a proxy, a NAT) are not refused for each other’s successes', async () => {
    // More successful starts from one address than the per-address budget of failures.
    for (let i = 0; i < 35; i++) await start();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push(
        (await call('/session/start', { method: 'POST', body: { link: 'https://x.example/security-verify?expires=1&key=k&signature=00' } })).status,
      );
    }

    expect(statuses.slice(0, 30).every((s) => s === 403)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('CSRF and origins', () => {
  it('refuses a state-changing call without the CSRF token or with a wrong one', async () => {
    const s = await start();
    const missing = await call('/session/methods/email/start', { method: 'POST', headers: { cookie: s.cookie }, body: {} });
    expect(missing.status).toBe(403);
    expect(await errorType(missing)).toBe('session_csrf_error');
    const wrong = await call('/session/methods/email/start', {
      method: 'POST',
      headers: { cookie: s.cookie, 'X-Verity-CSRF': s.csrf.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
      body: {},
    });
    expect(wrong.status).toBe(403);
    const right = await call('/session/methods/email/start', { method: 'POST', headers: { cookie: s.cookie, 'X-Verity-CSRF': s.csrf }, body: {} });
    expect(right.status).toBe(200);
  });

  it('refuses calls from a foreign origin, accepts the account’s customer origins with CORS', async () => {
    await writeSetting(server.verity.ctx.db, 'allowed_origins', ['https://shop.example']);
    const evil = await call('/session/start', { method: 'POST', headers: { origin: 'https://evil.example' }, body: { link: local(server, link) } });
    expect(evil.status).toBe(403);
    expect(await errorType(evil)).toBe('session_csrf_error');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();

    const preflight = await call('/session/start', { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('X-Verity-CSRF');
    // The widget fetches with credentials: 'include'; the Lax cookie is not sent cross-site anyway.
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');

    const s = await start({ origin: 'https://shop.example' });
    const view = await call('/session', { headers: { origin: 'https://shop.example', 'X-Verity-Session': s.token } });
    expect(view.status).toBe(200);
    expect(view.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const foreign = await call('/session/methods/email/start', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'X-Verity-Session': s.token, 'X-Verity-CSRF': s.csrf },
      body: {},
    });
    expect(foreign.status).toBe(403);
  });

  it('accepts same-origin calls (Origin equal to the host served)', async () => {
    const s = await start({ origin: server.url });
    const res = await call('/session/methods/email/start', {
      method: 'POST',
      headers: { origin: server.url, cookie: s.cookie, 'X-Verity-CSRF': s.csrf },
      body: {},
    });
    expect(res.status).toBe(200);
  });
});
