import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { buildMagicLink } from '../../../server/links/magic-link.js';
import { openShortLinkUrl } from '../../../server/links/sealed-url.js';
import { migrateToLatest, openDatabase, type Db } from '../../../server/store/database.js';
import { migrationProvider } from '../../../server/store/migrations/index.js';
import { seedDefaults } from '../../../server/store/seed.js';
import { createScratchDatabase } from '../../helpers/postgres.js';
import { TEST_DATABASE_URL } from '../../helpers/scale-env.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { client, createUser, local } from '../session/fixtures.js';

/**
 * Short links must not keep usable bearer URLs at rest (issue 18, point 5): the `short_links`
 * row holds no magic-link signature or hand-off token, and the short link still redirects.
 */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function server(): Promise<TestServer> {
  const s = await startTestServer();
  cleanups.push(() => s.close());
  return s;
}

/** Every column of the short link's row, as text. */
async function rawRow(db: Db, code: string): Promise<string> {
  const { rows } = await sql<Record<string, unknown>>`select * from short_links where code = ${code}`.execute(db);
  expect(rows).toHaveLength(1);
  return JSON.stringify(rows[0]);
}

describe('short links at rest', () => {
  it('a verify-url short link stores no usable URL, and still redirects to the full link', async () => {
    const s = await server();
    const { id } = await createUser(s, { email: 'short@example.com' });
    const res = await s.api(`/api/users/${id}/verify-url`, { body: { expiration_hours: 2 } });
    expect(res.status).toBe(200);
    const full = new URL(String(res.body.full_url));
    const code = new URL(String(res.body.short_url)).pathname.split('/').pop()!;

    const row = await rawRow(s.verity.ctx.db, code);
    expect(row).not.toContain(full.searchParams.get('signature')!);
    expect(row).not.toContain(full.searchParams.get('key')!);
    expect(row).not.toContain('security-verify');

    const redirect = await fetch(`${s.url}/l/${code}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(full.toString());
  });

  it('a hand-off short link stores no token, and still redirects', async () => {
    const s = await server();
    const { link } = await createUser(s, { email: 'phone@example.com' });
    const desktop = client(s);
    await desktop.start(local(s, link));
    const handoff = await desktop.createHandoff();
    const token = new URL(handoff.url).searchParams.get('handoff')!;
    const code = new URL(handoff.short_url).pathname.split('/').pop()!;
    expect(await rawRow(s.verity.ctx.db, code)).not.toContain(token);
    const redirect = await fetch(`${s.url}/l/${code}`, { redirect: 'manual' });
    expect(redirect.headers.get('location')).toBe(handoff.url);
  });

  it('a short link sealed under another VERITY_SECRET is refused like an unknown one', async () => {
    const s = await server();
    const { id } = await createUser(s, { email: 'rotated@example.com' });
    const res = await s.api(`/api/users/${id}/verify-url`, { body: {} });
    const code = new URL(String(res.body.short_url)).pathname.split('/').pop()!;
    const { rows } = await sql<{ sealed_url: string }>`select sealed_url from short_links where code = ${code}`.execute(s.verity.ctx.db);
    expect(openShortLinkUrl('another-secret-'.padEnd(48, 'z'), rows[0]!.sealed_url)).toBeNull();
    await sql`update short_links set sealed_url = ${rows[0]!.sealed_url.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))} where code = ${code}`.execute(
      s.verity.ctx.db,
    );
    expect((await fetch(`${s.url}/l/${code}`, { redirect: 'manual' })).status).toBe(403);
  });
});

describe('migration 0017-sealed-short-links', () => {
  const SECRET = 'migration-secret-'.padEnd(48, 'm');

  for (const dialect of ['sqlite', 'postgres'] as const) {
    it(`seals the short links written before it and drops the clear column (${dialect})`, async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'verity-0017-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const scratch = dialect === 'sqlite' ? undefined : await createScratchDatabase(TEST_DATABASE_URL, 'mig');
      if (scratch) cleanups.push(() => scratch.drop());
      const db = await openDatabase({ dataDir, databaseUrl: scratch?.url });
      cleanups.push(() => db.destroy());
      const { error } = await new Migrator({ db, provider: migrationProvider({ secret: SECRET }) }).migrateTo('0016-admin-totp-seal-label');
      expect(error).toBeUndefined();
      await seedDefaults(db, new ManualClock());
      const at = '2026-01-01T00:00:00.000Z';
      const { id } = await db
        .insertInto('users')
        .values({
          uuid: 'u1',
          email: 'old@example.com',
          username: 'u1',
          role_id: 2,
          status: 'Active',
          template_id: 1,
          link_key: 'k1',
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const url = buildMagicLink('https://verify.example', SECRET, { key: 'k1', expires: 4_000_000_000 });
      const signature = new URL(url).searchParams.get('signature')!;
      await sql`insert into short_links (code, user_id, full_url, expires_at, created_at) values ('old1', ${id}, ${url}, ${at}, ${at})`.execute(db);

      await migrateToLatest(db, { secret: SECRET });

      const { rows } = await sql<Record<string, string>>`select * from short_links where code = 'old1'`.execute(db);
      expect(Object.keys(rows[0]!)).not.toContain('full_url');
      expect(JSON.stringify(rows[0])).not.toContain(signature);
      expect(openShortLinkUrl(SECRET, rows[0]!.sealed_url!)).toBe(url);
      if (dialect === 'sqlite') {
        // Neither the file nor its WAL keeps the clear link (secure_delete, then the checkpoint).
        for (const file of ['verity.sqlite', 'verity.sqlite-wal']) {
          const bytes = await readFile(join(dataDir, file)).catch(() => Buffer.alloc(0));
          expect(bytes.includes(Buffer.from(signature)), file).toBe(false);
        }
      }
    });
  }
});
