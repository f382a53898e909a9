import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { listOutbox } from '../../../server/notify/outbox.js';
import { items, type Json, type TestServer } from '../../helpers/server.js';
import { type AdminClient, adminTestServer } from '../http/admin/admin-client.js';

let server: TestServer;
let clock: ManualClock;
let admin: AdminClient;
adminTestServer((t) => ({ server, clock, admin } = t));

async function post(path: string, body: unknown, ip?: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.config.baseUrl, ...(ip ? { 'x-forwarded-for': ip } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function codeFor(email: string): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const [m] = await listOutbox(server.dataDir, { to: email });
        text = m?.text ?? '';
        return text;
      },
      { timeout: 5000 },
    )
    .toMatch(/\b\d{6}\b/);
  return /\b(\d{6})\b/.exec(text)![1]!;
}

describe('self-signup', () => {
  it('is off until the dashboard switches it on', async () => {
    expect((await post('/signup/api/start', { email: 'x@example.com' })).status).toBe(404);
    const config = await fetch(`${server.url}/signup/api/config`);
    expect(((await config.json()) as { enabled: boolean }).enabled).toBe(false);
  });

  it('registers, confirms by e-mail code and lands in the flow with the chosen template; Email is done', async () => {
    expect((await admin.request('PATCH', '/admin/api/settings', { signup: { enabled: true, template: 'tmpl_contact', ask_phone: true } })).status).toBe(200);
    const start = await post('/signup/api/start', { email: 'sam@example.com', first_name: 'Sam', last_name: 'Lee', phone: '+14155550123' });
    expect(start.status).toBe(201);
    const token = String(start.body.token);
    const code = await codeFor('sam@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    const bad = await post('/signup/api/confirm', { token, code: wrong });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.code[0]).toMatch(/4 tries left/);
    const ok = await post('/signup/api/confirm', { token, code });
    expect(ok.status).toBe(200);
    const link = String(ok.body.magic_link);
    expect(link).toMatch(/^http:\/\/verity\.test\/security-verify\?expires=/);
    // The link opens the hosted page.
    expect((await fetch(server.url + new URL(link).pathname + new URL(link).search)).status).toBe(200);
    // A confirmed signup cannot be confirmed again.
    const again = await post('/signup/api/confirm', { token, code });
    expect({ status: again.status, type: again.body.error_type }).toEqual({ status: 410, type: 'api_gone_error' });
    const users = await admin.request('GET', '/admin/api/users?search=sam@example.com');
    const id = Number(users.body.data[0]!.id);
    const page = await admin.request('GET', `/admin/api/users/${id}`);
    expect(page.body.data.template.name).toBe('tmpl_contact');
    expect(page.body.data.user.first_name).toBe('Sam');
    expect(page.body.data.user.phone).toBe('+14155550123');
    expect(page.body.data.user.email_verified_at).not.toBeNull();
    expect(items(page.body.data.verifications).map((v) => v.status.key)).toEqual(['complete', 'assigned']);
  });

  it('locks a code after five wrong tries and expires it after ten minutes; resend issues a new one', async () => {
    await admin.request('PATCH', '/admin/api/settings', { signup: { enabled: true } });
    const start = await post('/signup/api/start', { email: 'bot@example.com' });
    const token = String(start.body.token);
    const code = await codeFor('bot@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await post('/signup/api/confirm', { token, code: wrong })).status).toBe(422);
    expect((await post('/signup/api/confirm', { token, code })).status).toBe(410);
    expect((await post('/signup/api/resend', { token })).status).toBe(200);
    let fresh = '';
    await expect
      .poll(
        async () => {
          const all = await listOutbox(server.dataDir, { to: 'bot@example.com' });
          fresh = all.length === 2 ? /\b(\d{6})\b/.exec(all[0]!.text)![1]! : '';
          return all.length;
        },
        { timeout: 5000 },
      )
      .toBe(2);
    clock.advance(11 * 60_000);
    expect((await post('/signup/api/confirm', { token, code: fresh })).status).toBe(410);
  });

  it('guesses sent at once share the five tries: no more than five are compared, the right code after them is refused', async () => {
    await admin.request('PATCH', '/admin/api/settings', { signup: { enabled: true } });
    const start = await post('/signup/api/start', { email: 'burst@example.com' });
    const token = String(start.body.token);
    const code = await codeFor('burst@example.com');
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(guesses.map((guess, i) => post('/signup/api/confirm', { token, code: guess }, `198.51.100.${i + 1}`)));
    expect(answers.filter((a) => a.status === 422)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 410)).toHaveLength(7);
    expect((await post('/signup/api/confirm', { token, code }, '198.51.100.99')).status).toBe(410);
  });

  it('limits registrations per client address and refuses cross-site posts', async () => {
    await admin.request('PATCH', '/admin/api/settings', { signup: { enabled: true } });
    for (let i = 0; i < 5; i++) expect((await post('/signup/api/start', { email: `b${i}@example.com` })).status).toBe(201);
    const limited = await post('/signup/api/start', { email: 'b6@example.com' });
    expect(limited.status).toBe(429);
    const cross = await fetch(`${server.url}/signup/api/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ email: 'c@example.com' }),
    });
    expect(cross.status).toBe(403);
  });
});
