import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { SEAL_LABELS, sealerFor, sealNotifyCode as seal } from '../../../server/crypto/seal.js';
import { migrateToLatest, openDatabase, type Db } from '../../../server/store/database.js';
import { migrationProvider } from '../../../server/store/migrations/index.js';
import { signingSecrets } from '../../../server/webhooks/endpoints.js';
import { openSigningSecret, sealSigningSecret, SigningSecretError } from '../../../server/crypto/webhook-secrets.js';
import { webhooksOf } from '../../../server/webhooks/service.js';
import { generateSigningSecret } from '../../../server/webhooks/signing.js';
import { createScratchDatabase, type ScratchDatabase } from '../../helpers/postgres.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { type AdminClient, signedInAdmin } from '../http/admin/admin-client.js';
import { attempts, createUser, deliveries, moveEmail, settle } from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function serverWithAdmin(options: Parameters<typeof startTestServer>[0] = {}): Promise<{ server: TestServer; admin: AdminClient; receiver: Receiver }> {
  const server = await startTestServer(options);
  cleanups.push(() => server.close());
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const admin = await signedInAdmin(server);
  return { server, admin, receiver };
}

function headerRecord(h: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Every file of a SQLite data dir (database, WAL), as text, to look for a secret on disk. */
async function sqliteFiles(dataDir: string): Promise<string> {
  const names = (await readdir(dataDir)).filter((n) => n.startsWith('verity.sqlite'));
  expect(names).toContain('verity.sqlite');
  return (await Promise.all(names.map((n) => readFile(join(dataDir, n), 'latin1')))).join('\n');
}

describe('sealing', () => {
  it('opens only under the same server secret and label, and notices tampering', () => {
    const sealed = sealerFor('server-a', SEAL_LABELS.notifyCode).seal('hello');
    expect(sealerFor('server-a', SEAL_LABELS.notifyCode).open(sealed)).toBe('hello');
    expect(() => sealerFor('server-b', SEAL_LABELS.notifyCode).open(sealed)).toThrow();
    expect(() => sealerFor('server-a', SEAL_LABELS.adminTotpSecret).open(sealed)).toThrow();
    const [iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => sealerFor('server-a', SEAL_LABELS.notifyCode).open([iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    // The notify seal keeps its own label: its values never open as webhook secrets.
    expect(() => openSigningSecret('server-a', `v1.${seal('server-a', generateSigningSecret())}`)).toThrow(SigningSecretError);
  });

  it('seals a signing secret as v1.<iv>.<tag>.<ciphertext> with a fresh IV each time', () => {
    const secret = generateSigningSecret();
    const a = sealSigningSecret('server', secret);
    const b = sealSigningSecret('server', secret);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toBe(b);
    expect(openSigningSecret('server', a)).toBe(secret);
    expect(() => openSigningSecret('another server', a, 7)).toThrow(/webhook endpoint 7 cannot be decrypted: VERITY_SECRET/);
    expect(() => openSigningSecret('server', secret, 7)).toThrow(/stored in clear/);
  });
});

describe('webhook signing secrets at rest', () => {
  it('never stores the secret in clear; reveal and rotation still give it; signatures still verify', async () => {
    const { server, admin, receiver } = await serverWithAdmin();
    const created = await admin.request('POST', '/admin/api/webhooks/endpoints', { url: receiver.url, events: ['verification.completed'] });
    expect(created.status).toBe(201);
    const id = Number(created.body.data.id);
    const first = String(created.body.signing_secret);
    const rotated = await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/rotate`, { overlap_hours: 1 });
    expect(rotated.status).toBe(200);
    const second = String(rotated.body.signing_secret);

    const row = await server.verity.ctx.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    for (const stored of [row.secret, row.previous_secret!]) {
      expect(stored).toMatch(/^v1\./);
      for (const clear of [first, second]) {
        expect(stored).not.toContain(clear);
        expect(stored).not.toContain(clear.slice('whsec_'.length));
      }
    }
    // Not in any column of the table either (e.g. a copy left by an UPDATE), nor anywhere on disk.
    expect(JSON.stringify(await server.verity.ctx.db.selectFrom('webhook_endpoints').selectAll().execute())).not.toContain(first.slice(6));
    if (!server.config.databaseUrl) {
      const disk = await sqliteFiles(server.dataDir);
      expect(disk).not.toContain(first.slice(6));
      expect(disk).not.toContain(second.slice(6));
    }

    const reveal = await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/reveal`);
    expect(reveal.status).toBe(200);
    expect(reveal.body.signing_secret).toBe(second);
    expect(reveal.body.previous_signing_secret).toBe(first);

    const userId = await createUser(server);
    await moveEmail(server, userId, 'complete');
    await settle(server);
    const [got] = await receiver.waitFor(1);
    const headers = headerRecord(got!.headers);
    expect(() => new Webhook(first).verify(got!.body, headers)).not.toThrow();
    expect(() => new Webhook(second).verify(got!.body, headers)).not.toThrow();
    expect((await deliveries(server)).map((d) => d.state)).toEqual(['succeeded']);
  });

  it('under another VERITY_SECRET nothing is signed with garbage: the attempt fails with the reason, reveal says why', async () => {
    const { server, admin, receiver } = await serverWithAdmin();
    const created = await admin.request('POST', '/admin/api/webhooks/endpoints', { url: receiver.url, events: ['verification.completed'] });
    const id = Number(created.body.data.id);
    // What a change of VERITY_SECRET looks like from this server: a secret sealed under another one.
    await server.verity.ctx.db
      .updateTable('webhook_endpoints')
      .set({ secret: sealSigningSecret('the secret this server had before', generateSigningSecret()) })
      .where('id', '=', id)
      .execute();

    expect(await webhooksOf(server.verity.ctx).checkSigningSecrets()).toEqual([id]);
    const reveal = await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/reveal`);
    expect(reveal.status).toBe(500);
    expect(reveal.body.error_message).toMatch(new RegExp(`webhook endpoint ${id} cannot be decrypted: VERITY_SECRET is not the one it was sealed with`));
    expect(reveal.body.signing_secret).toBeUndefined();
    // A rotation that would keep the unreadable secret signing is refused; one without overlap replaces it.
    expect((await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/rotate`, { overlap_hours: 1 })).status).toBe(500);

    const userId = await createUser(server);
    await moveEmail(server, userId, 'complete');
    await settle(server);
    expect(receiver.received).toHaveLength(0);
    const [d] = await deliveries(server);
    expect(d!.state).toBe('pending');
    const [a] = await attempts(server, d!.id);
    expect(a).toMatchObject({ outcome: 'retry', response_status: null, request_headers: '{}' });
    expect(a!.error).toMatch(/cannot be decrypted: VERITY_SECRET/);

    const fresh = await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/rotate`, { overlap_hours: 0 });
    expect(fresh.status).toBe(200);
    expect(await webhooksOf(server.verity.ctx).checkSigningSecrets()).toEqual([]);
  });
});

describe('migration 0007-webhook-secret-encryption', () => {
  /** A store of its own (SQLite, or a scratch PostgreSQL database on the scale switch), migrated to 0006. */
  async function storeBefore0007(): Promise<{ db: Db; dataDir: string }> {
    const dataDir = await mkdtemp(join(tmpdir(), 'verity-0007-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let scratch: ScratchDatabase | undefined;
    const adminUrl = process.env.VERITY_TEST_DATABASE_URL;
    if (adminUrl) {
      scratch = await createScratchDatabase(adminUrl, 'mig');
      cleanups.push(() => scratch!.drop());
    }
    const db = await openDatabase({ dataDir, databaseUrl: scratch?.url });
    const { error } = await new Migrator({ db, provider: migrationProvider() }).migrateTo('0006-list-indexes');
    expect(error).toBeUndefined();
    return { db, dataDir };
  }

  async function insertClearEndpoint(db: Db, url: string, secret: string, previous: string | null): Promise<number> {
    const now = new Date().toISOString();
    const row = await db
      .insertInto('webhook_endpoints')
      .values({
        url,
        description: null,
        event_types: JSON.stringify(['verification.completed']),
        method_ids: null,
        enabled: 1,
        disabled_reason: null,
        disabled_at: null,
        secret,
        previous_secret: previous,
        previous_secret_expires_at: previous ? new Date(Date.now() + 3_600_000).toISOString() : null,
        failing_since: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('needs the server secret when there are clear rows, and says so', async () => {
    const { db } = await storeBefore0007();
    cleanups.push(() => db.destroy());
    await insertClearEndpoint(db, 'https://hooks.example.com/in', generateSigningSecret(), null);
    await expect(migrateToLatest(db)).rejects.toThrow(/0007-webhook-secret-encryption/);
    const { error } = await new Migrator({ db, provider: migrationProvider() }).migrateToLatest();
    expect(String(error)).toMatch(/needs the server secret \(VERITY_SECRET\)/);
  });

  it('seals the clear secrets of an older install at boot; deliveries still verify with the secret receivers hold', async () => {
    const { db } = await storeBefore0007();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const current = generateSigningSecret();
    const previous = generateSigningSecret();
    const id = await insertClearEndpoint(db, receiver.url, current, previous);

    // The server's own start runs the remaining migrations with its VERITY_SECRET.
    const server = await startTestServer({ db });
    cleanups.push(() => server.close());
    const row = await server.verity.ctx.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^v1\./);
    expect(row.previous_secret).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(current.slice(6));
    expect(JSON.stringify(row)).not.toContain(previous.slice(6));
    expect(signingSecrets(row, server.clock.now(), server.config.secret)).toEqual([current, previous]);

    // Running the migrations again (every start does) leaves sealed values alone.
    await migrateToLatest(server.verity.ctx.db, { secret: server.config.secret });
    const again = await server.verity.ctx.db.selectFrom('webhook_endpoints').select('secret').where('id', '=', id).executeTakeFirstOrThrow();
    expect(again.secret).toBe(row.secret);

    const userId = await createUser(server);
    await moveEmail(server, userId, 'complete');
    await settle(server);
    const [got] = await receiver.waitFor(1);
    expect(() => new Webhook(current).verify(got!.body, headerRecord(got!.headers))).not.toThrow();
    expect(() => new Webhook(previous).verify(got!.body, headerRecord(got!.headers))).not.toThrow();
  });
});
