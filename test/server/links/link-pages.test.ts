import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { buildMagicLink, checkMagicLink, signMagicLink } from '../../../server/links/magic-link.js';
import { writeSetting } from '../../../server/store/repos/settings-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createUser, local } from '../session/fixtures.js';

const SECRET = 'unit-secret-'.padEnd(40, 'y');
const NOW = new Date('2026-06-15T12:00:00Z');
const LATER = Math.floor(NOW.getTime() / 1000) + 3600;

function query(link: string): Record<string, string> {
  return Object.fromEntries(new URL(link).searchParams);
}

describe('checkMagicLink', () => {
  const link = buildMagicLink('https://verify.example.com', SECRET, { key: 'k3y', expires: LATER, email: 'a@example.com', code: '42' });

  it('accepts a valid link with its optional parameters', () => {
    expect(checkMagicLink(SECRET, query(link), NOW)).toEqual({ ok: true, params: { key: 'k3y', expires: LATER, email: 'a@example.com', code: '42' } });
  });

  it('refuses a link tampered in any parameter', () => {
    const q = query(link);
    for (const [name, value] of [
      ['expires', String(LATER + 1)],
      ['key', 'k3z'],
      ['email', 'b@example.com'],
      ['code', '43'],
      ['signature', q.signature!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))],
    ] as const) {
      expect(checkMagicLink(SECRET, { ...q, [name]: value }, NOW), name).toEqual({ ok: false, reason: 'tampered' });
    }
    // Dropping an optional signed parameter or adding one is tampering too.
    const { email: _dropped, ...withoutEmail } = q;
    expect(checkMagicLink(SECRET, withoutEmail, NOW)).toEqual({ ok: false, reason: 'tampered' });
    expect(checkMagicLink(SECRET, { ...q, code: undefined }, NOW).ok).toBe(false);
  });

  it('refuses a link signed with another secret', () => {
    const other = buildMagicLink('https://verify.example.com', 'other-secret-'.padEnd(40, 'z'), { key: 'k3y', expires: LATER });
    expect(checkMagicLink(SECRET, query(other), NOW)).toEqual({ ok: false, reason: 'tampered' });
  });

  it('checks the signature before the expiry, then refuses an expired link', () => {
    const expired = buildMagicLink('https://x.example', SECRET, { key: 'k', expires: LATER - 7200 });
    expect(checkMagicLink(SECRET, query(expired), NOW)).toEqual({ ok: false, reason: 'expired' });
    expect(checkMagicLink(SECRET, { ...query(expired), expires: String(LATER) }, NOW)).toEqual({ ok: false, reason: 'tampered' });
  });

  it('refuses malformed links: missing key, non-numeric expiry, short or non-hex signature, repeated parameters', () => {
    const q = query(link);
    expect(checkMagicLink(SECRET, { ...q, key: '' }, NOW).ok).toBe(false);
    expect(checkMagicLink(SECRET, { ...q, expires: '12abc' }, NOW).ok).toBe(false);
    expect(checkMagicLink(SECRET, { ...q, signature: 'abc' }, NOW).ok).toBe(false);
    expect(checkMagicLink(SECRET, { ...q, signature: 'z'.repeat(64) }, NOW).ok).toBe(false);
    expect(checkMagicLink(SECRET, { ...q, key: ['k3y', 'k3y'] }, NOW).ok).toBe(false);
  });

  it('signs path and query only, so the same link verifies under a custom domain', () => {
    const a = buildMagicLink('https://verity.example', SECRET, { key: 'k', expires: LATER });
    const b = buildMagicLink('https://id.customer.example', SECRET, { key: 'k', expires: LATER });
    expect(query(a).signature).toBe(query(b).signature);
    expect(query(a).signature).toBe(signMagicLink(SECRET, { key: 'k', expires: LATER }));
  });
});

describe('GET /security-verify and POST /session/start with links', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  async function open(link: string): Promise<{ status: number; text: string }> {
    const res = await fetch(local(server, link), { redirect: 'manual' });
    return { status: res.status, text: await res.text() };
  }

  async function start(link: string): Promise<{ status: number; type: string }> {
    const res = await fetch(`${server.url}/session/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ link }) });
    const body = (await res.json()) as { error_type?: string };
    return { status: res.status, type: body.error_type ?? 'ok' };
  }

  it('a valid link shows the landing page (200) and starts nothing', async () => {
    const { id, link } = await createUser(server, { email: 'ok@example.com', template_id: 'tmpl_email' });
    expect((await open(link)).status).toBe(200);
    const sessions = await server.verity.ctx.db.withTables<{ user_sessions: { user_id: number } }>().selectFrom('user_sessions').selectAll().execute();
    expect(sessions).toHaveLength(0);
    expect((await server.api(`/api/users/${id}`)).body.data.status).toBe('Unconfirmed');
    expect(await start(link)).toEqual({ status: 200, type: 'ok' });
    expect((await server.api(`/api/users/${id}`)).body.data.status).toBe('Active');
  });

  it('a tampered link gets the "not valid" page with 403, in the account branding', async () => {
    await writeSetting(server.verity.ctx.db, 'account_name', 'Acme <Bank>');
    const { link } = await createUser(server, { email: 't@example.com' });
    for (const name of ['expires', 'key', 'signature']) {
      const url = new URL(link);
      const value = url.searchParams.get(name)!;
      url.searchParams.set(name, name === 'expires' ? String(Number(value) + 60) : `${value.slice(0, -1)}${value.endsWith('a') ? 'b' : 'a'}`);
      const page = await open(url.toString());
      expect(page.status, name).toBe(403);
      expect(page.text).toContain('This link is not valid');
      expect(page.text).toContain('Acme &lt;Bank&gt;');
      expect(await start(url.toString())).toEqual({ status: 403, type: 'session_link_invalid' });
    }
    const added = new URL(link);
    added.searchParams.set('email', 'x@example.com');
    expect((await open(added.toString())).status).toBe(403);
  });

  it('an expired link gets the "expired" page with 410', async () => {
    const { link } = await createUser(server, { email: 'e@example.com' });
    (server.clock as ManualClock).advance(73 * 3600 * 1000);
    const page = await open(link);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This link has expired');
    expect(await start(link)).toEqual({ status: 410, type: 'session_link_expired' });
  });

  it('a link of a deleted or banned user is revoked (403), with the same page for both', async () => {
    const deleted = await createUser(server, { email: 'd@example.com' });
    const banned = await createUser(server, { email: 'b@example.com' });
    expect((await server.api(`/api/users/${deleted.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await server.api(`/api/users/${banned.id}`, { method: 'PATCH', body: { status: 'Banned' } })).status).toBe(200);
    const a = await open(deleted.link);
    const b = await open(banned.link);
    expect(a.status).toBe(403);
    expect(b.status).toBe(403);
    expect(a.text).toContain('This link is no longer valid');
    // Same page apart from the nonce: nothing tells a deleted user from a banned one.
    const strip = (t: string) => t.replace(/nonce="[^"]+"/g, '');
    expect(strip(a.text)).toBe(strip(b.text));
    expect(await start(deleted.link)).toEqual({ status: 403, type: 'session_link_revoked' });
    expect(await start(banned.link)).toEqual({ status: 403, type: 'session_link_revoked' });
  });

  it('speaks the browser language on refusal pages (Arabic right to left)', async () => {
    const { link } = await createUser(server, { email: 'l@example.com' });
    (server.clock as ManualClock).advance(73 * 3600 * 1000);
    const es = await fetch(local(server, link), { headers: { 'accept-language': 'es-MX,es;q=0.9' } });
    expect(es.status).toBe(410);
    const esHtml = await es.text();
    expect(esHtml).toContain('<html lang="es">');
    expect(esHtml).toContain('Este enlace ha caducado');
    const ar = await (await fetch(local(server, link), { headers: { 'accept-language': 'ar' } })).text();
    expect(ar).toContain('<html lang="ar" dir="rtl">');
  });

  it('a link signed with another secret is refused like a tampered one', async () => {
    const { link } = await createUser(server, { email: 'w@example.com' });
    const q = query(link);
    const forged = buildMagicLink(server.config.baseUrl, 'not-the-server-secret'.padEnd(40, 'q'), { key: q.key!, expires: Number(q.expires) });
    expect((await open(forged)).status).toBe(403);
    expect(await start(forged)).toEqual({ status: 403, type: 'session_link_invalid' });
    expect(await start('https://elsewhere.example/other?key=1')).toEqual({ status: 403, type: 'session_link_invalid' });
  });

  it('uses the custom domain as the base of links, and short links redirect until they expire', async () => {
    await writeSetting(server.verity.ctx.db, 'custom_domain', 'https://id.acme.example');
    const { id } = await createUser(server, { email: 'c@example.com' });
    const res = await server.api(`/api/users/${id}/verify-url`, { body: { expiration_hours: 1 } });
    expect(res.status).toBe(200);
    const full = String(res.body.full_url);
    expect(full.startsWith('https://id.acme.example/security-verify?')).toBe(true);
    const short = new URL(String(res.body.short_url));
    expect(short.origin).toBe('https://id.acme.example');
    const redirect = await fetch(`${server.url}${short.pathname}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(full);
    expect(await start(full)).toEqual({ status: 200, type: 'ok' });
    (server.clock as ManualClock).advance(3601 * 1000);
    expect((await fetch(`${server.url}${short.pathname}`, { redirect: 'manual' })).status).toBe(410);
    expect((await fetch(`${server.url}/l/unknown-code`, { redirect: 'manual' })).status).toBe(403);
  });
});
