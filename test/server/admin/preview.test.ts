import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderHostedPage } from '../../../server/http/hosted/routes.js';
import { sdb } from '../../../server/session/tables.js';
import { readSettings, writeSetting } from '../../../server/store/repos/settings-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createUser, local } from '../session/fixtures.js';
import { type AdminClient, signedInAdmin } from '../http/admin/admin-client.js';

let server: TestServer;
let admin: AdminClient;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
  admin = await signedInAdmin(server);
  await writeSetting(server.verity.ctx.db, 'account_name', 'Saved Name');
  await writeSetting(server.verity.ctx.db, 'branding', {
    logo_url: 'http://verity.test/branding/logo/0123456789abcdef01234567.png',
    primary_color: '#123456',
    background_color: null,
    text_color: null,
  });
  await writeSetting(server.verity.ctx.db, 'allowed_origins', ['https://shop.example']);
});
afterEach(async () => {
  await server.close();
});

const DRAFT = '/admin/preview/hosted?account_name=Draft+%26+Co+%3Cb%3E&primary_color=%23aa0000&background_color=%23fafafa&text_color=&logo=none';

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.url + path, { headers: { ...(admin.cookie ? { cookie: admin.cookie } : {}), ...headers }, redirect: 'manual' });
}

function csp(res: Response): Map<string, string[]> {
  return new Map(
    (res.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((p) => p[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

async function counts(): Promise<{ users: number; sessions: number }> {
  const db = server.verity.ctx.db;
  const users = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const sessions = await sdb(db)
    .selectFrom('user_sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { users: Number(users.n), sessions: Number(sessions.n) };
}

describe('branding preview (GET /admin/preview/hosted)', () => {
  it('needs an admin session: refused without one, with an API key, with an end-user session, and cross-site', async () => {
    const anonymous = await fetch(server.url + DRAFT);
    expect(anonymous.status).toBe(401);
    const body = await anonymous.text();
    expect((JSON.parse(body) as { error_type: string }).error_type).toBe('api_auth_error');
    expect(body).not.toContain('Draft');
    const key = await fetch(server.url + DRAFT, { headers: { authorization: `Bearer ${server.apiKey}`, 'user-agent': 't' } });
    expect(key.status).toBe(401);
    // An end user's session cookie is no admin credential.
    const { link } = await createUser(server, { email: 'end@example.com' });
    const start = await fetch(`${server.url}/session/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ link: local(server, link) }),
    });
    expect(start.status).toBe(200);
    const endUser = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await fetch(server.url + DRAFT, { headers: { cookie: endUser } })).status).toBe(401);
    // Another site cannot load it in a signed-in admin's browser, not even as a top-level page.
    expect((await get(DRAFT, { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe' })).status).toBe(403);
    expect((await get(DRAFT, { 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'document' })).status).toBe(403);
  });

  it('renders the hosted page with the draft name and colours (not the saved ones), framable only by the dashboard', async () => {
    const res = await get(DRAFT, { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'iframe' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    // The name escaped as the page escapes it (HTML in the fallback page, JSON in the app's data block).
    expect(html.includes('Draft &amp; Co &lt;b&gt;') || html.includes('Draft & Co \\u003cb>')).toBe(true);
    expect(html).not.toContain('<b>');
    expect(html).toContain('#aa0000');
    expect(html).toContain('#fafafa');
    expect(html).not.toContain('Saved Name');
    expect(html).not.toContain('#123456');
    // logo=none: the saved logo is not shown.
    expect(html).not.toContain('0123456789abcdef01234567.png');
    const d = csp(res);
    expect(d.get('frame-ancestors')).toEqual(["'self'"]);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const nonce = d
      .get('script-src')!
      .find((s) => s.startsWith("'nonce-"))!
      .slice(7, -1);
    expect(d.get('script-src')).not.toContain("'unsafe-inline'");
    for (const tag of html.match(/<(script|style)\b[^>]*>/gi) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('is a preview only: no cookie, no session, no user, nothing saved; the page is told so', async () => {
    const before = await counts();
    const res = await get(DRAFT);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    const html = await res.text();
    // The app build gets `preview: true` in its data block; the server-rendered page has no script at all.
    if (html.includes('id="verity-page"')) expect(html).toContain('"preview":true');
    else expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/signature=|magic_link|session_token/);
    expect(await counts()).toEqual(before);
    const saved = await readSettings(server.verity.ctx.db);
    expect(saved.account_name).toBe('Saved Name');
    expect(saved.branding.primary_color).toBe('#123456');
  });

  it('keeps saved values for what the draft leaves out, and refuses bad values with the spec error body', async () => {
    const res = await get('/admin/preview/hosted');
    const html = await res.text();
    expect(html).toContain('Saved Name');
    expect(html).toContain('#123456');
    expect(html).toContain('0123456789abcdef01234567.png');
    // The saved logo's origin is allowed for images; customer origins may not frame the preview.
    expect(csp(res).get('img-src')).toContain('http://verity.test');
    expect(csp(res).get('frame-ancestors')).toEqual(["'self'"]);
    for (const bad of ['primary_color=red', 'text_color=%23abc', 'logo=https%3A%2F%2Fevil.example%2Fx.png', `account_name=${'x'.repeat(101)}`]) {
      const refused = await get(`/admin/preview/hosted?${bad}`);
      expect(refused.status, bad).toBe(422);
      expect(((await refused.json()) as { error_type: string }).error_type).toBe('api_validation_error');
    }
  });

  it('the dashboard page may frame our own origin only', async () => {
    const page = await fetch(`${server.url}/admin`);
    expect(csp(page).get('frame-src')).toEqual(["'self'"]);
    expect(csp(page).get('frame-ancestors')).toEqual(["'none'"]);
    const signup = await fetch(`${server.url}/signup`);
    expect(csp(signup).get('frame-src')).toEqual(["'none'"]);
  });
});

describe('renderHostedPage', () => {
  let dist: string;
  beforeEach(async () => {
    dist = await mkdtemp(join(tmpdir(), 'verity-hosted-'));
    await mkdir(join(dist, 'hosted'));
    await writeFile(
      join(dist, 'hosted', 'index.html'),
      '<!doctype html><html><head><title>x</title><script type="module" src="/web/hosted/main.js"></script></head><body></body></html>',
    );
  });
  afterEach(async () => {
    await rm(dist, { recursive: true, force: true });
  });

  it('gives the hosted app its branding in a data block with the nonce, and the preview flag', async () => {
    const settings = await readSettings(server.verity.ctx.db);
    const draft = { ...settings, account_name: 'A </script><script>alert(1)</script>', branding: { ...settings.branding, logo_url: 'javascript:alert(1)' } };
    for (const preview of [true, false]) {
      const html = await renderHostedPage({ webDist: dist, settings: draft, nonce: 'NONCE', locale: 'en', methodNames: [], preview });
      const block = /<script type="application\/json" id="verity-page" nonce="NONCE">(.*?)<\/script>/.exec(html);
      expect(block).not.toBeNull();
      expect(html.indexOf(block![0])).toBeLessThan(html.indexOf('</head>'));
      expect(JSON.parse(block![1]!)).toEqual({
        branding: { account_name: 'A </script><script>alert(1)</script>', logo_url: null, primary_color: '#123456', background_color: null, text_color: null },
        preview,
      });
      expect(html).toContain('<script nonce="NONCE" type="module"');
      expect(html).not.toContain('<script>alert');
    }
  });

  it('without the app build, renders the server page; the preview one has no script', async () => {
    const settings = await readSettings(server.verity.ctx.db);
    const live = await renderHostedPage({ webDist: join(dist, 'missing'), settings, nonce: 'N', locale: 'en', methodNames: ['Email'] });
    expect(live).toContain('<script nonce="N">');
    const preview = await renderHostedPage({ webDist: join(dist, 'missing'), settings, nonce: 'N', locale: 'en', methodNames: ['Email'], preview: true });
    expect(preview).not.toContain('<script');
    expect(preview).toContain('<li>Email</li>');
    expect(preview).toContain('--primary: #123456');
  });
});
