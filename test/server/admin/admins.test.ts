import { TOTP } from 'otpauth';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isPostgres } from '../../../server/store/migrations/helpers.js';
import type { ManualClock } from '../../helpers/manual-clock.js';
import type { TestServer } from '../../helpers/server.js';
import { AdminClient, ADMIN_EMAIL, ADMIN_PASSWORD, adminTestServer } from '../http/admin/admin-client.js';

let server: TestServer;
let clock: ManualClock;
let admin: AdminClient;
adminTestServer((t) => ({ server, clock, admin } = t));

describe('admin invitations', () => {
  it('an invited person sets a password once and can sign in; the link cannot be used again', async () => {
    const invite = await admin.request('POST', '/admin/api/admins/invites', { email: 'New.Admin@Example.com' });
    expect(invite.status).toBe(201);
    const token = String(invite.body.url).split('#')[1]!;
    expect(String(invite.body.url)).toMatch(/^http:\/\/verity\.test\/admin\/invite#/);
    const guest = new AdminClient(server);
    expect((await guest.request('POST', '/admin/api/invites/accept', { token, password: 'short' })).status).toBe(422);
    expect((await guest.request('POST', '/admin/api/invites/accept', { token, password: 'a long enough passphrase' })).status).toBe(200);
    expect((await guest.request('POST', '/admin/api/invites/accept', { token, password: 'a long enough passphrase' })).status).toBe(410);
    expect((await guest.login('new.admin@example.com', 'a long enough passphrase')).status).toBe(200);
    const list = await guest.request('GET', '/admin/api/admins');
    expect(list.body.meta.total).toBe(2);
    // The invite token is stored only hashed.
    const rows = await server.verity.ctx.db
      .selectFrom('admin_invites' as never)
      .selectAll()
      .execute();
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('an invitation expires after 72 hours, and an admin cannot remove themself', async () => {
    const invite = await admin.request('POST', '/admin/api/admins/invites', { email: 'late@example.com' });
    clock.advance(73 * 3_600_000);
    const guest = new AdminClient(server);
    const token = String(invite.body.url).split('#')[1]!;
    const late = await guest.request('POST', '/admin/api/invites/accept', { token, password: 'a long enough passphrase' });
    expect({ status: late.status, type: late.body.error_type }).toEqual({ status: 410, type: 'api_gone_error' });
    // The admin session itself ended meanwhile (12 h at most).
    expect((await admin.request('GET', '/admin/api/admins')).status).toBe(401);
    await admin.login();
    const me = await admin.request('GET', '/admin/api/admins');
    // A conflict and a used-up link each have a type of their own, at the catalogue's status.
    const removeSelf = await admin.request('DELETE', `/admin/api/admins/${String(me.body.data[0]!.id)}`);
    expect({ status: removeSelf.status, type: removeSelf.body.error_type }).toEqual({ status: 409, type: 'api_conflict_error' });
  });
});

describe('admin invitations accepted twice at once', () => {
  it('one person is created, the other accept is told the link is used; never a 500', async () => {
    const invite = await admin.request('POST', '/admin/api/admins/invites', { email: 'twice@example.com' });
    const token = String(invite.body.url).split('#')[1]!;
    const accepts = await Promise.all(
      Array.from({ length: 4 }, () => new AdminClient(server).request('POST', '/admin/api/invites/accept', { token, password: 'a long enough passphrase' })),
    );
    expect(accepts.map((r) => r.status).sort()).toEqual([200, 410, 410, 410]);
    const list = await admin.request('GET', '/admin/api/admins');
    expect(JSON.stringify(list.body).split('twice@example.com')).toHaveLength(2);
  });

  it('two invitations for one address accepted at once: one admin, the other told the address is taken', async () => {
    const tokens = await Promise.all(
      [1, 2].map(async () => {
        const invite = await admin.request('POST', '/admin/api/admins/invites', { email: 'both@example.com' });
        return String(invite.body.url).split('#')[1]!;
      }),
    );
    const accepts = await overlappingOnPostgres(() =>
      Promise.all(tokens.map((token) => new AdminClient(server).request('POST', '/admin/api/invites/accept', { token, password: 'a long enough passphrase' }))),
    );
    expect(accepts.map((r) => [r.status, r.body.error_type]).sort()).toEqual([
      [200, undefined],
      [409, 'api_conflict_error'],
    ]);
    const list = await admin.request('GET', '/admin/api/admins');
    expect(JSON.stringify(list.body).split('both@example.com')).toHaveLength(2);
  });
});

/**
 * On PostgreSQL, runs `requests` while the admins table is held, until two transactions wait to
 * write it: both accepts then pass every check before either commits, the overlap a busy server
 * meets by chance. SQLite has one writer at a time, so there they run as they come.
 */
async function overlappingOnPostgres<T>(requests: () => Promise<T>): Promise<T> {
  const db = server.verity.ctx.db;
  if (!isPostgres(db)) return requests();
  let running: Promise<T> | undefined;
  await db.transaction().execute(async (trx) => {
    await sql`LOCK TABLE admins IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    running = requests();
    await expect
      .poll(
        async () =>
          (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'admins'::regclass`.execute(db)).rows[0]!.n,
        {
          timeout: 20_000,
        },
      )
      .toBe(2);
  });
  return running!;
}

describe('admin TOTP second factor', () => {
  it('once enabled, sign-in needs a current code; a code is accepted only once', async () => {
    const setup = await admin.request('POST', '/admin/api/me/totp');
    expect(setup.status).toBe(200);
    expect(String(setup.body.uri)).toMatch(/^otpauth:\/\/totp\/Verity:root%40example\.com\?/);
    const totp = new TOTP({ secret: String(setup.body.secret) });
    const codeAt = (t: Date) => totp.generate({ timestamp: t.getTime() });
    expect((await admin.request('POST', '/admin/api/me/totp/enable', { code: '000000' === codeAt(clock.now()) ? '111111' : '000000' })).status).toBe(422);
    expect((await admin.request('POST', '/admin/api/me/totp/enable', { code: codeAt(clock.now()) })).status).toBe(200);

    const other = new AdminClient(server);
    const noCode = await other.login();
    expect(noCode.status).toBe(401);
    expect(noCode.body.errors.totp).toEqual(['required']);
    expect(other.cookie).toBeUndefined();
    clock.advance(30_000);
    const ok = await other.request('POST', '/admin/api/session', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, totp: codeAt(clock.now()) });
    expect(ok.status).toBe(200);
    const replay = await new AdminClient(server).request('POST', '/admin/api/session', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      totp: codeAt(clock.now()),
    });
    expect(replay.status).toBe(401);
    clock.advance(30_000);
    expect((await admin.request('DELETE', '/admin/api/me/totp', { code: codeAt(clock.now()) })).status).toBe(200);
    expect((await new AdminClient(server).login()).status).toBe(200);
  });
});
