/**
 * Every audited admin action writes its audit record in the transaction of its change (issue 7):
 * when the record cannot be written the change is rolled back, when the change fails nothing is
 * recorded, and each successful action writes exactly one record.
 */
import { sql } from 'kysely';
import { TOTP } from 'otpauth';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ddb } from '../../../server/admin/tables.js';
import type { ManualClock } from '../../helpers/manual-clock.js';
import type { TestServer } from '../../helpers/server.js';
import { AdminClient, type AdminResponse, adminTestServer } from '../http/admin/admin-client.js';

let server: TestServer;
let clock: ManualClock;
let admin: AdminClient;
// No workers: nothing is delivered or sent, only written (webhook test payloads stay queued).
adminTestServer((t) => ({ server, clock, admin } = t), { workers: false });

const db = () => server.verity.ctx.db;

async function auditRows(): Promise<{ action: string; target_id: string | null; admin_email: string }[]> {
  return ddb(db()).selectFrom('audit_log').select(['action', 'target_id', 'admin_email']).orderBy('id').execute();
}

/** Makes writing an audit record fail (the table is renamed away) until the returned function runs. */
async function blockAudit(): Promise<() => Promise<void>> {
  await sql`alter table audit_log rename to audit_log_blocked`.execute(db());
  return async () => {
    await sql`alter table audit_log_blocked rename to audit_log`.execute(db());
  };
}

/** One audited action: what it calls, what it records, and the state it changes. */
interface AuditedAction {
  action: string;
  run(): Promise<AdminResponse>;
  /** The rows the action changes, read straight from the database. */
  state(): Promise<unknown>;
}

async function newUser(email: string, template = 'tmpl_contact'): Promise<number> {
  const res = await admin.request('POST', '/admin/api/users', { email, template_id: template });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return Number(res.body.data.id);
}

const userState = (id: number) => async () => ({
  user: await db().selectFrom('users').select(['status', 'first_name', 'template_id']).where('id', '=', id).executeTakeFirst(),
  verifications: await db().selectFrom('user_verifications').select(['method_id', 'status']).where('user_id', '=', id).orderBy('method_id').execute(),
  links: await db().selectFrom('short_links').select('code').where('user_id', '=', id).execute(),
  jobs: (await db().selectFrom('jobs').select('payload').where('queue', '=', 'notify').execute()).length,
});
const settingsState = async () => db().selectFrom('settings').selectAll().orderBy('key').execute();
const countOf = (table: 'users' | 'templates' | 'workflows' | 'api_keys' | 'admins') => async () =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * Runs the action twice: first with the audit log unwritable (it must fail with the spec's 500 body
 * and leave its rows as they were, and leave no record), then normally (it must succeed, change its
 * rows and write exactly one record, of its own action).
 */
async function checkAtomic(a: AuditedAction): Promise<void> {
  const before = await a.state();
  const recordsBefore = (await auditRows()).length;
  const unblock = await blockAudit();
  let refused: AdminResponse;
  try {
    refused = await a.run();
  } finally {
    await unblock();
  }
  expect(refused.status, `${a.action} without its audit record`).toBe(500);
  expect(refused.body.error_type).toBe('api_internal_error');
  expect(await a.state(), `${a.action} rolled back`).toEqual(before);
  expect(await auditRows()).toHaveLength(recordsBefore);

  const done = await a.run();
  expect(done.status, `${a.action}: ${JSON.stringify(done.body)}`).toBeLessThan(300);
  const records = (await auditRows()).slice(recordsBefore);
  expect(
    records.map((r) => r.action),
    `${a.action} records`,
  ).toEqual([a.action]);
}

describe('audit records are written with their change', () => {
  it('users: create, update, status, template, verification, link sent, delete', async () => {
    await checkAtomic({
      action: 'user.create',
      run: () => admin.request('POST', '/admin/api/users', { email: 'ada@example.com', template_id: 'tmpl_contact', send_link: true }),
      state: async () => ({ users: await countOf('users')(), jobs: (await db().selectFrom('jobs').select('id').execute()).length }),
    });
    const id = Number((await db().selectFrom('users').select('id').where('email', '=', 'ada@example.com').executeTakeFirstOrThrow()).id);
    for (const [action, body] of [
      ['user.update', { first_name: 'Ada' }],
      ['user.status', { status: 'Banned' }],
      ['user.template', { template_id: 'tmpl_email' }],
    ] as const) {
      await checkAtomic({ action, run: () => admin.request('PATCH', `/admin/api/users/${id}`, body), state: userState(id) });
    }
    await checkAtomic({
      action: 'verification.complete',
      run: () => admin.request('POST', `/admin/api/users/${id}/verifications`, { method: 'email', status: 'complete' }),
      state: userState(id),
    });
    await checkAtomic({ action: 'user.link.email', run: () => admin.request('POST', `/admin/api/users/${id}/link`, { send: 'email' }), state: userState(id) });
    await checkAtomic({ action: 'user.delete', run: () => admin.request('DELETE', `/admin/api/users/${id}`), state: userState(id) });
    expect((await auditRows()).filter((r) => r.target_id === String(id)).every((r) => r.admin_email === 'root@example.com')).toBe(true);
  });

  it('templates, workflows and template roles', async () => {
    await checkAtomic({
      action: 'workflow.create',
      run: () => admin.request('POST', '/admin/api/workflows', { name: 'Passport', document_types: ['passport'] }),
      state: countOf('workflows'),
    });
    const workflow = (await db().selectFrom('workflows').select('public_id').where('name', '=', 'Passport').executeTakeFirstOrThrow()).public_id;
    await checkAtomic({
      action: 'template.create',
      run: () => admin.request('POST', '/admin/api/templates', { name: 'tmpl_audit', label: 'Audit', methods: ['email'] }),
      state: countOf('templates'),
    });
    const template = Number((await db().selectFrom('templates').select('id').where('name', '=', 'tmpl_audit').executeTakeFirstOrThrow()).id);
    await checkAtomic({
      action: 'template.update',
      run: () => admin.request('PATCH', `/admin/api/templates/${template}`, { label: 'Audited', methods: ['email', 'phone'] }),
      state: async () => ({
        t: await db().selectFrom('templates').select('label').where('id', '=', template).executeTakeFirst(),
        m: await db().selectFrom('template_methods').select('method_id').where('template_id', '=', template).execute(),
      }),
    });
    await checkAtomic({
      action: 'template.roles',
      run: () => admin.request('PUT', '/admin/api/templates/roles', { reverification_template: 'tmpl_audit' }),
      state: settingsState,
    });
    await checkAtomic({
      action: 'template.roles',
      run: () => admin.request('PUT', '/admin/api/templates/roles', { reverification_template: null }),
      state: settingsState,
    });
    await checkAtomic({ action: 'template.delete', run: () => admin.request('DELETE', `/admin/api/templates/${template}`), state: countOf('templates') });
    await checkAtomic({ action: 'workflow.delete', run: () => admin.request('DELETE', `/admin/api/workflows/${workflow}`), state: countOf('workflows') });
  });

  it('settings, branding logo and knowledge questions', async () => {
    await checkAtomic({
      action: 'settings.update',
      run: () => admin.request('PATCH', '/admin/api/settings', { account_name: 'Audited Inc', branding: { primary_color: '#112233' } }),
      state: settingsState,
    });
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    await checkAtomic({
      action: 'branding.logo',
      run: async () => {
        const res = await fetch(`${server.url}/admin/api/branding/logo`, {
          method: 'POST',
          headers: { cookie: admin.cookie!, origin: server.config.baseUrl, 'content-type': 'image/png' },
          body: png,
        });
        return { status: res.status, headers: res.headers, body: (await res.json()) as AdminResponse['body'] };
      },
      state: settingsState,
    });
    await checkAtomic({
      action: 'knowledge.update',
      run: () =>
        admin.request('PUT', '/admin/api/knowledge', {
          questions: [{ id: 'q1', prompt: 'Favourite colour?', kind: 'text', answers: ['blue'] }],
          ask: 1,
          pass_threshold: 1,
          max_attempts: 3,
        }),
      state: settingsState,
    });
  });

  it('API keys, admins, invitations and two-factor sign-in', async () => {
    await checkAtomic({ action: 'api_key.create', run: () => admin.request('POST', '/admin/api/api-keys', { name: 'Backend' }), state: countOf('api_keys') });
    const key = Number((await db().selectFrom('api_keys').select('id').where('name', '=', 'Backend').executeTakeFirstOrThrow()).id);
    await checkAtomic({
      action: 'api_key.revoke',
      run: () => admin.request('DELETE', `/admin/api/api-keys/${key}`),
      state: () => db().selectFrom('api_keys').select('revoked_at').where('id', '=', key).executeTakeFirst(),
    });

    const invites = () => ddb(db()).selectFrom('admin_invites').selectAll().execute();
    await checkAtomic({
      action: 'admin.invite',
      run: () => admin.request('POST', '/admin/api/admins/invites', { email: 'second@example.com' }),
      state: invites,
    });
    // A second invitation whose token we keep, to accept it.
    const invite = await admin.request('POST', '/admin/api/admins/invites', { email: 'third@example.com' });
    const token = String(invite.body.url).split('#')[1]!;
    const newcomer = new AdminClient(server);
    await checkAtomic({
      action: 'admin.invite.accept',
      run: () => newcomer.request('POST', '/admin/api/invites/accept', { token, password: 'a long enough password' }),
      state: async () => ({ admins: await countOf('admins')(), invites: await invites() }),
    });
    expect((await auditRows()).at(-1)!.admin_email).toBe('third@example.com');
    const third = Number((await db().selectFrom('admins').select('id').where('email', '=', 'third@example.com').executeTakeFirstOrThrow()).id);
    await checkAtomic({ action: 'admin.remove', run: () => admin.request('DELETE', `/admin/api/admins/${third}`), state: countOf('admins') });

    const setup = await admin.request('POST', '/admin/api/me/totp');
    const totp = new TOTP({ secret: String(setup.body.secret) });
    // A code is accepted once; each try takes the next 30-second step.
    const nextCode = () => {
      clock.advance(30_000);
      return totp.generate({ timestamp: clock.now().getTime() });
    };
    const totpState = () =>
      ddb(db())
        .selectFrom('admin_totp')
        .selectAll()
        .execute()
        .then((rows) => rows.map((r) => ({ ...r, last_counter: undefined })));
    await checkAtomic({ action: 'admin.totp.enable', run: () => admin.request('POST', '/admin/api/me/totp/enable', { code: nextCode() }), state: totpState });
    await checkAtomic({ action: 'admin.totp.disable', run: () => admin.request('DELETE', '/admin/api/me/totp', { code: nextCode() }), state: totpState });
  });

  it('webhooks: endpoint create, update, delete; secret reveal and rotate; test payload; delivery retry and unmask', async () => {
    const endpoints = () => db().selectFrom('webhook_endpoints').selectAll().execute();
    await checkAtomic({
      action: 'webhook.endpoint.create',
      run: () => admin.request('POST', '/admin/api/webhooks/endpoints', { url: 'http://127.0.0.1:9/hooks' }),
      state: endpoints,
    });
    const id = Number((await endpoints())[0]!.id);
    await checkAtomic({
      action: 'webhook.endpoint.update',
      run: () => admin.request('PATCH', `/admin/api/webhooks/endpoints/${id}`, { description: 'audited' }),
      state: endpoints,
    });
    // Disclosures: nothing is shown unless the record was written.
    const blockedReveal = await (async () => {
      const unblock = await blockAudit();
      try {
        return await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/reveal`);
      } finally {
        await unblock();
      }
    })();
    expect(blockedReveal.status).toBe(500);
    expect(blockedReveal.body.signing_secret).toBeUndefined();
    await checkAtomic({
      action: 'webhook.secret.reveal',
      run: () => admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/reveal`),
      state: endpoints,
    });
    await checkAtomic({
      action: 'webhook.secret.rotate',
      run: () => admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/rotate`, {}),
      state: endpoints,
    });
    const deliveries = () => db().selectFrom('webhook_deliveries').select(['id', 'state', 'next_attempt_at']).orderBy('id').execute();
    await checkAtomic({ action: 'webhook.test', run: () => admin.request('POST', `/admin/api/webhooks/endpoints/${id}/test`, {}), state: deliveries });
    const delivery = Number((await deliveries())[0]!.id);
    await db().updateTable('webhook_deliveries').set({ state: 'failed', completed_at: clock.now().toISOString() }).where('id', '=', delivery).execute();
    await checkAtomic({
      action: 'webhook.delivery.retry',
      run: () => admin.request('POST', `/admin/api/webhooks/deliveries/${delivery}/retry`),
      state: deliveries,
    });
    await checkAtomic({
      action: 'webhook.delivery.unmask',
      run: () => admin.request('GET', `/admin/api/webhooks/deliveries/${delivery}?reveal=true`),
      state: deliveries,
    });
    await checkAtomic({ action: 'webhook.endpoint.delete', run: () => admin.request('DELETE', `/admin/api/webhooks/endpoints/${id}`), state: endpoints });
  });

  it('a change that fails writes no record', async () => {
    const id = await newUser('grace@example.com');
    const before = (await auditRows()).length;
    // Rolled back inside the transaction, after the user row was written: no user, no record.
    await sql`alter table user_verifications rename to user_verifications_blocked`.execute(db());
    let failed: AdminResponse;
    try {
      failed = await admin.request('POST', '/admin/api/users', { email: 'alan@example.com', template_id: 'tmpl_contact' });
    } finally {
      await sql`alter table user_verifications_blocked rename to user_verifications`.execute(db());
    }
    expect(failed.status).toBe(500);
    expect(await db().selectFrom('users').select('id').where('email', '=', 'alan@example.com').executeTakeFirst()).toBeUndefined();
    // Refused changes are not recorded either.
    expect((await admin.request('DELETE', '/admin/api/users/999999')).status).toBe(404);
    expect((await admin.request('PATCH', `/admin/api/users/${id}`, { template_id: 'tmpl_missing' })).status).toBe(422);
    expect((await admin.request('DELETE', '/admin/api/webhooks/endpoints/999999')).status).toBe(404);
    expect((await admin.request('POST', `/admin/api/users/${id}/verifications`, { method: 'document_id', status: 'complete' })).status).toBe(422);
    expect(await auditRows()).toHaveLength(before);
  });
});
