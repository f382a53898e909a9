import exifr from 'exifr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { listOutbox } from '../../../server/notify/outbox.js';
import { sdb } from '../../../server/session/tables.js';
import { items, type Json, type TestServer } from '../../helpers/server.js';
import { type AdminClient, adminTestServer } from '../http/admin/admin-client.js';

let server: TestServer;
let clock: ManualClock;
let admin: AdminClient;
adminTestServer((t) => ({ server, clock, admin } = t));

async function auditActions(): Promise<string[]> {
  const res = await admin.request('GET', '/admin/api/audit?per_page=100');
  expect(res.status).toBe(200);
  return items(res.body.data).map((e) => String(e.action));
}

async function addUser(body: Record<string, unknown>): Promise<number> {
  const res = await admin.request('POST', '/admin/api/users', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return Number(res.body.data.id);
}

describe('dashboard users', () => {
  it('lists users a page at a time with search, status filter and sort, never more than asked', async () => {
    for (let i = 0; i < 25; i++) {
      clock.advance(1000);
      await addUser({ email: `person${i}@example.com`, first_name: i % 2 ? 'Odd' : 'Even', last_name: `N${i}` });
    }
    const first = await admin.request('GET', '/admin/api/users?per_page=10');
    expect(first.status).toBe(200);
    expect(items(first.body.data)).toHaveLength(10);
    expect(first.body.meta).toEqual({ page: 1, per_page: 10, total: 25, last_page: 3 });
    // Newest first by default.
    expect(first.body.data[0]!.email).toBe('person24@example.com');
    const third = await admin.request('GET', '/admin/api/users?per_page=10&page=3&sort=email');
    expect(items(third.body.data).map((u) => u.email)).toEqual([
      'person5@example.com',
      'person6@example.com',
      'person7@example.com',
      'person8@example.com',
      'person9@example.com',
    ]);
    const search = await admin.request('GET', '/admin/api/users?search=odd&per_page=100');
    expect(search.body.meta.total).toBe(12);
    expect(items(search.body.data).every((u) => String(u.first_name) === 'Odd')).toBe(true);
    const id = Number(first.body.data[0]!.id);
    expect((await admin.request('PATCH', `/admin/api/users/${id}`, { status: 'Banned' })).status).toBe(200);
    const banned = await admin.request('GET', '/admin/api/users?status=Banned');
    expect(items(banned.body.data).map((u) => Number(u.id))).toEqual([id]);
    expect((await admin.request('GET', '/admin/api/users?per_page=101')).status).toBe(422);
  });

  it('adds a user with a template, shows the user page, and records who did it', async () => {
    const id = await addUser({
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+14155550123',
      template_id: 'tmpl_contact',
      reference_id: 'ref-1',
    });
    const page = await admin.request('GET', `/admin/api/users/${id}`);
    expect(page.status).toBe(200);
    expect(page.body.data.reference_id).toBe('ref-1');
    expect(page.body.data.template.name).toBe('tmpl_contact');
    expect(items(page.body.data.verifications).map((v) => [v.key, v.status.key])).toEqual([
      ['email', 'assigned'],
      ['phone', 'assigned'],
    ]);
    const audit = await admin.request('GET', '/admin/api/audit');
    const entry = audit.body.data[0]!;
    expect(entry.action).toBe('user.create');
    expect(entry.admin_email).toBe('root@example.com');
    expect(entry.target_id).toBe(String(id));
    expect(entry.created_at).toBe('2026-05-10T12:00:00.000Z');
    // No PII in the audit record.
    expect(JSON.stringify(entry)).not.toContain('ada@example.com');
  });

  it('approves, rejects and resets a method through the verification rules: statuses, events and audit follow', async () => {
    const id = await addUser({ email: 'grace@example.com', template_id: 'tmpl_contact' });
    const approve = await admin.request('POST', `/admin/api/users/${id}/verifications`, { method: 'email', status: 'complete' });
    expect(approve.status).toBe(200);
    expect(approve.body.data.status).toBe('Unconfirmed');
    const reject = await admin.request('POST', `/admin/api/users/${id}/verifications`, { method: 'phone', status: 'rejected', remarks: 'wrong number' });
    expect(reject.body.data.status).toBe('Review');
    let page = await admin.request('GET', `/admin/api/users/${id}`);
    expect(items(page.body.data.verifications).map((v) => v.status.key)).toEqual(['complete', 'rejected']);
    expect(page.body.data.verifications[1]!.remarks).toBe('wrong number');
    const reset = await admin.request('POST', `/admin/api/users/${id}/verifications`, {
      method: 'phone',
      status: 'reset',
      reason: 'Give a mobile number that receives texts.',
    });
    expect(reset.status).toBe(200);
    page = await admin.request('GET', `/admin/api/users/${id}`);
    expect(page.body.data.verifications[1]!.status.key).toBe('reset');
    // The same events as through the API (the outbox rows stay; the relay only marks them dispatched).
    const events = await server.verity.ctx.db.selectFrom('events').select('type').where('user_id', '=', id).orderBy('occurred_at').orderBy('id').execute();
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['verification.completed', 'verification.rejected', 'user.status.changed']));
    expect(await auditActions()).toEqual(expect.arrayContaining(['verification.complete', 'verification.rejected', 'verification.reset']));
    const bad = await admin.request('POST', `/admin/api/users/${id}/verifications`, { method: 'document_id', status: 'complete' });
    expect(bad.status).toBe(422);
  });

  it('changes status, switches template, and deletes a user (recorded in the audit log)', async () => {
    const id = await addUser({ email: 'alan@example.com', template_id: 'tmpl_email' });
    const ban = await admin.request('PATCH', `/admin/api/users/${id}`, { status: 'Banned' });
    expect(ban.body.data.status).toBe('Banned');
    const switched = await admin.request('PATCH', `/admin/api/users/${id}`, { template_id: 'tmpl_contact' });
    expect(items(switched.body.data.verifications).map((v) => v.id)).toEqual([1, 2]);
    expect((await admin.request('DELETE', `/admin/api/users/${id}`)).status).toBe(200);
    expect((await admin.request('GET', `/admin/api/users/${id}`)).status).toBe(404);
    expect((await admin.request('DELETE', `/admin/api/users/${id}`)).status).toBe(404);
    const log = await admin.request('GET', `/admin/api/audit?target_type=user&target_id=${id}`);
    expect(items(log.body.data).map((e) => e.action)).toEqual(['user.delete', 'user.template', 'user.status', 'user.create']);
    expect(log.body.data[2]!.details).toEqual({ fields: ['status'], from: 'Unconfirmed', to: 'Banned' });
  });

  it('makes a verify link (full and short) and sends it by e-mail through the outbox', async () => {
    const id = await addUser({ email: 'link@example.com', template_id: 'tmpl_email' });
    const link = await admin.request('POST', `/admin/api/users/${id}/link`, { send: 'email' });
    expect(link.status).toBe(200);
    expect(String(link.body.full_url)).toMatch(/^http:\/\/verity\.test\/security-verify\?expires=\d+&key=.+&signature=[0-9a-f]{64}$/);
    expect(String(link.body.short_url)).toMatch(/^http:\/\/verity\.test\/l\/[A-Za-z0-9_-]+$/);
    const short = await fetch(server.url + new URL(String(link.body.short_url)).pathname, { redirect: 'manual' });
    expect(short.status).toBe(302);
    await expect.poll(async () => (await listOutbox(server.dataDir, { to: 'link@example.com' })).length, { timeout: 5000 }).toBe(1);
    const outbox = await admin.request('GET', '/admin/api/outbox?per_page=5');
    expect(outbox.body.data[0]!.to).toBe('link@example.com');
    expect(outbox.body.meta.has_more).toBe(false);
    expect((await admin.request('POST', `/admin/api/users/${id}/link`, { send: 'sms' })).status).toBe(422);
  });

  it('serves captured images only through short-lived signed URLs, re-encoded without EXIF', async () => {
    const id = await addUser({ email: 'img@example.com', template_id: 'tmpl_document' });
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret-owner', ImageDescription: 'gps inside' } })
      .toBuffer();
    expect(((await exifr.parse(jpeg)) as Record<string, unknown>).Copyright).toBe('secret-owner');
    await server.verity.ctx.blobs.put(`users/${id}/doc-front.jpg`, jpeg, 'image/jpeg');
    await sdb(server.verity.ctx.db)
      .insertInto('session_uploads')
      .values({
        id: 'up_1',
        user_id: id,
        method_key: 'document_id',
        document_type: 'passport',
        side: 'front',
        challenge_id: null,
        step_index: null,
        step: null,
        blob_key: `users/${id}/doc-front.jpg`,
        media_type: 'image/jpeg',
        size: jpeg.length,
        meta: '{}',
        created_at: clock.now().toISOString(),
      })
      .execute();
    const page = await admin.request('GET', `/admin/api/users/${id}`);
    const url = String(page.body.data.images[0]!.url);
    expect(url).toMatch(/^\/admin\/api\/images\/up_1\?expires=\d+&sig=[0-9a-f]{64}$/);
    const res = await fetch(server.url + url, { headers: { cookie: admin.cookie! } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const served = Buffer.from(await res.arrayBuffer());
    expect(await exifr.parse(served).catch(() => undefined)).toBeUndefined();
    expect((await sharp(served).metadata()).width).toBe(64);
    // Without the admin cookie, with a changed signature, or after expiry: refused.
    expect((await fetch(server.url + url)).status).toBe(401);
    expect((await fetch(server.url + url.replace(/sig=./, 'sig=f'), { headers: { cookie: admin.cookie! } })).status).toBe(403);
    expect((await fetch(server.url + url.replace('up_1', 'up_2'), { headers: { cookie: admin.cookie! } })).status).toBe(403);
    // A document verification job of the user: its results and its stored image, the same way.
    await server.verity.ctx.blobs.put(`users/${id}/job.jpg`, jpeg, 'image/jpeg');
    await server.verity.ctx.db
      .insertInto('document_jobs')
      .values({
        doc_id: 'doc_abc',
        user_id: id,
        template_id: 1,
        status: 'Success',
        reason: null,
        original_name: 'a.jpg',
        media_type: 'image/jpeg',
        size: jpeg.length,
        blob_key: `users/${id}/job.jpg`,
        document_data: JSON.stringify({ doc_type: 'passport' }),
        portrait_embedding: null,
        source: 'api',
        created_at: clock.now().toISOString(),
        completed_at: clock.now().toISOString(),
      })
      .execute();
    const withJob = await admin.request('GET', `/admin/api/users/${id}`);
    const job = withJob.body.data.document_jobs[0]!;
    expect(job.status).toBe('Success');
    expect(job.document_data).toEqual({ doc_type: 'passport' });
    const jobImage = await fetch(server.url + String(job.image_url), { headers: { cookie: admin.cookie! } });
    expect(jobImage.status).toBe(200);
    expect(await exifr.parse(Buffer.from(await jobImage.arrayBuffer())).catch(() => undefined)).toBeUndefined();
    clock.advance(6 * 60_000);
    const later = await fetch(server.url + url, { headers: { cookie: admin.cookie! } });
    expect(later.status).toBe(410);
  });
});

describe('dashboard templates', () => {
  it('creates, edits and deletes templates and workflows, and sets the default and re-verification templates', async () => {
    const wf = await admin.request('POST', '/admin/api/workflows', { name: 'Passports', document_types: ['passport'] });
    expect(wf.status).toBe(201);
    const created = await admin.request('POST', '/admin/api/templates', {
      name: 'tmpl_kyc',
      label: 'KYC',
      methods: ['email', 'document_id', 'selfie'],
      workflows: [wf.body.data.id],
    });
    expect(created.status).toBe(201);
    expect((await admin.request('POST', '/admin/api/templates', { name: 'tmpl_kyc', label: 'again', methods: ['email'] })).status).toBe(422);
    expect((await admin.request('POST', '/admin/api/templates', { name: 'bad name', label: 'x', methods: ['email'] })).status).toBe(422);
    expect((await admin.request('POST', '/admin/api/templates', { name: 'tmpl_y', label: 'x', methods: ['telepathy'] })).status).toBe(422);
    const id = Number(created.body.data.id);
    expect((await admin.request('PATCH', `/admin/api/templates/${id}`, { label: 'KYC v2', methods: ['document_id'] })).status).toBe(200);
    // The API sees the same template.
    const api = await server.api('/api/settings/templates/verifications');
    expect(items(api.body).find((t) => String(t.name) === 'tmpl_kyc')!.types).toEqual(['Document / ID']);
    const user = await addUser({ email: 'kyc@example.com', template_id: 'tmpl_kyc' });
    const list = await admin.request('GET', '/admin/api/templates');
    const kyc = items(list.body.data).find((t) => String(t.name) === 'tmpl_kyc')!;
    expect(kyc.label).toBe('KYC v2');
    expect(kyc.users).toBe(1);
    expect(kyc.workflows).toEqual([wf.body.data.id]);
    expect((await admin.request('DELETE', `/admin/api/workflows/${String(wf.body.data.id)}`)).status).toBe(409);
    expect((await admin.request('PUT', '/admin/api/templates/roles', { reverification_template: 'tmpl_kyc' })).status).toBe(200);
    expect((await admin.request('DELETE', `/admin/api/templates/${id}`)).status).toBe(409);
    expect((await admin.request('PUT', '/admin/api/templates/roles', { reverification_template: 'tmpl_selfie', default_template: 'tmpl_nope' })).status).toBe(
      422,
    );
    expect((await admin.request('PUT', '/admin/api/templates/roles', { reverification_template: 'tmpl_selfie' })).status).toBe(200);
    // Nor while self-signup gives it to people.
    expect((await admin.request('PATCH', '/admin/api/settings', { signup: { template: 'tmpl_kyc' } })).status).toBe(200);
    expect((await admin.request('DELETE', `/admin/api/templates/${id}`)).status).toBe(409);
    expect((await admin.request('PATCH', '/admin/api/settings', { signup: { template: null } })).status).toBe(200);
    expect((await admin.request('DELETE', `/admin/api/templates/${id}`)).status).toBe(200);
    // The user keeps the verifications that were assigned.
    const page = await admin.request('GET', `/admin/api/users/${user}`);
    expect(page.body.data.template).toBeNull();
    expect(items(page.body.data.verifications)).toHaveLength(1);
    expect(await auditActions()).toEqual(
      expect.arrayContaining(['workflow.create', 'template.create', 'template.update', 'template.roles', 'template.delete']),
    );
  });
});

describe('dashboard settings', () => {
  it('updates general settings, branding, signup and retention; rejects bad values', async () => {
    const res = await admin.request('PATCH', '/admin/api/settings', {
      account_name: 'Acme',
      default_completion_url: 'https://acme.example/done',
      allowed_origins: ['https://shop.acme.example'],
      link_lifetime_hours: 24,
      custom_domain: 'https://verify.acme.example/',
      allowed_countries: ['DE', 'FR'],
      branding: { primary_color: '#112233' },
      signup: { enabled: true, template: 'tmpl_email' },
      retention: { images_days: 30 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body.data;
    expect(s.account_name).toBe('Acme');
    expect(s.custom_domain).toBe('https://verify.acme.example');
    expect(s.branding.primary_color).toBe('#112233');
    expect(s.signup).toEqual({ enabled: true, template: 'tmpl_email', ask_name: true, ask_phone: false });
    expect(s.retention.images_days).toBe(30);
    // Links now use the custom domain.
    const id = await addUser({ email: 'cd@example.com' });
    const link = await admin.request('POST', `/admin/api/users/${id}/link`, {});
    expect(String(link.body.full_url)).toMatch(/^https:\/\/verify\.acme\.example\/security-verify\?/);
    for (const bad of [
      { default_completion_url: 'javascript:alert(1)' },
      { allowed_origins: ['https://x.example/path'] },
      { branding: { primary_color: 'red' } },
      { signup: { template: 'tmpl_nope' } },
      { nope: 1 },
    ]) {
      expect((await admin.request('PATCH', '/admin/api/settings', bad)).status, JSON.stringify(bad)).toBe(422);
    }
  });

  it('two branding changes and a logo at once keep all three (each merged into what is stored)', async () => {
    const png = await sharp({ create: { width: 90, height: 30, channels: 4, background: '#00ff00' } })
      .png()
      .toBuffer();
    const logo = () =>
      fetch(`${server.url}/admin/api/branding/logo`, {
        method: 'POST',
        headers: { cookie: admin.cookie!, origin: server.config.baseUrl, 'content-type': 'image/png' },
        body: png,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { logo_url: string } }));
    const [a, b, c] = await Promise.all([
      admin.request('PATCH', '/admin/api/settings', { branding: { primary_color: '#111111' } }),
      admin.request('PATCH', '/admin/api/settings', { branding: { text_color: '#222222' }, consent: { text: 'We keep your images for 30 days.' } }),
      logo(),
    ]);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    const s = (await admin.request('GET', '/admin/api/settings')).body.data;
    expect(s.branding).toMatchObject({ primary_color: '#111111', text_color: '#222222', logo_url: c.body.logo_url });
    expect(s.consent.text).toBe('We keep your images for 30 days.');
  });

  it('two signup changes and two retention changes at once keep all four (each merged into what is stored)', async () => {
    const change = (body: object) => admin.request('PATCH', '/admin/api/settings', body);
    const answers = await Promise.all([
      change({ signup: { ask_phone: true } }),
      change({ signup: { ask_name: false } }),
      change({ retention: { images_days: 30 } }),
      change({ retention: { unconfirmed_signup_days: 14 } }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const s = (await admin.request('GET', '/admin/api/settings')).body.data;
    expect(s.signup).toMatchObject({ ask_phone: true, ask_name: false });
    expect(s.retention).toMatchObject({ images_days: 30, unconfirmed_signup_days: 14 });
  });

  it('accepts a logo only when its content is an image, re-encodes it and serves it publicly', async () => {
    const png = await sharp({ create: { width: 900, height: 300, channels: 4, background: '#ff0000' } })
      .png()
      .toBuffer();
    const up = await admin.request('POST', '/admin/api/branding/logo', undefined, { 'content-type': 'image/png' });
    expect(up.status).toBe(422);
    const res = await fetch(`${server.url}/admin/api/branding/logo`, {
      method: 'POST',
      headers: { cookie: admin.cookie!, origin: server.config.baseUrl, 'content-type': 'image/png' },
      body: png,
    });
    expect(res.status).toBe(200);
    const { logo_url } = (await res.json()) as { logo_url: string };
    expect(logo_url).toMatch(/^http:\/\/verity\.test\/branding\/logo\/[0-9a-f]{24}\.png$/);
    const served = await fetch(server.url + new URL(logo_url).pathname);
    expect(served.status).toBe(200);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(512);
    const fake = await fetch(`${server.url}/admin/api/branding/logo`, {
      method: 'POST',
      headers: { cookie: admin.cookie!, origin: server.config.baseUrl, 'content-type': 'image/png' },
      body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    });
    expect(fake.status).toBe(422);
    expect(((await admin.request('GET', '/admin/api/settings')).body.data.branding as Json).logo_url).toBe(logo_url);
  });
});

describe('dashboard developer settings', () => {
  it('creates an API key shown once, which works against the API until it is revoked', async () => {
    const created = await admin.request('POST', '/admin/api/api-keys', { name: 'Backend' });
    expect(created.status).toBe(201);
    const key = String(created.body.key);
    expect(key).toMatch(/^vk_live_/);
    expect(created.body.data.key_hash).toBeUndefined();
    expect((await server.api('/api/verify-credentials', { method: 'POST', key })).status).toBe(200);
    const list = await admin.request('GET', '/admin/api/api-keys?revoked=false');
    const row = items(list.body.data).find((k) => String(k.name) === 'Backend')!;
    expect(String(key).startsWith(String(row.prefix))).toBe(true);
    expect(row.last_used_at).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect((await admin.request('DELETE', `/admin/api/api-keys/${String(row.id)}`)).status).toBe(200);
    expect((await server.api('/api/users', { key })).status).toBe(401);
    expect((await admin.request('DELETE', `/admin/api/api-keys/${String(row.id)}`)).status).toBe(404);
    expect(await auditActions()).toEqual(expect.arrayContaining(['api_key.create', 'api_key.revoke']));
  });

  it('records the webhook admin actions in the audit log: create, reveal, rotate, unmask, delete', async () => {
    const created = await admin.request('POST', '/admin/api/webhooks/endpoints', { url: 'https://hooks.example.com/in' });
    expect(created.status).toBe(201);
    const id = String(created.body.data.id);
    expect((await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/reveal`)).status).toBe(200);
    expect((await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/rotate`, {})).status).toBe(200);
    expect((await admin.request('DELETE', `/admin/api/webhooks/endpoints/${id}`)).status).toBe(200);
    // A refused action is not recorded.
    expect((await admin.request('DELETE', `/admin/api/webhooks/endpoints/${id}`)).status).toBe(404);
    await expect
      .poll(async () => auditActions())
      .toEqual(['webhook.endpoint.delete', 'webhook.secret.rotate', 'webhook.secret.reveal', 'webhook.endpoint.create']);
    const log = await admin.request('GET', '/admin/api/audit?target_type=webhook_endpoint');
    expect(
      items(log.body.data)
        .slice(0, 3)
        .map((e) => e.target_id),
    ).toEqual([id, id, id]);
  });

  it('paginates the audit log', async () => {
    for (let i = 0; i < 7; i++) await admin.request('POST', '/admin/api/api-keys', { name: `k${i}` });
    const p1 = await admin.request('GET', '/admin/api/audit?per_page=3');
    const p3 = await admin.request('GET', '/admin/api/audit?per_page=3&page=3');
    expect(p1.body.meta).toEqual({ page: 1, per_page: 3, total: 7, last_page: 3 });
    expect(items(p3.body.data)).toHaveLength(1);
    expect(p3.body.data[0]!.details).toEqual({ name: 'k0', prefix: expect.stringMatching(/^vk_live_/) });
  });
});
