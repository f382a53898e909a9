import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openNotifyCode, openTotpSecret, SEAL_LABELS, sealerFor, sealNotifyCode, sealTotpSecret } from '../../../server/crypto/seal.js';
import { migrateToLatest, openDatabase, type Db } from '../../../server/store/database.js';
import { migrationProvider } from '../../../server/store/migrations/index.js';
import { createScratchDatabase } from '../../helpers/postgres.js';
import { TEST_DATABASE_URL } from '../../helpers/scale-env.js';

const SECRET = 's'.repeat(40);
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('seal labels', () => {
  it('gives every use a label of its own, and a value sealed for one use opens for no other', () => {
    const labels = Object.values(SEAL_LABELS);
    expect(new Set(labels).size).toBe(labels.length);
    for (const from of labels) {
      const sealed = sealerFor(SECRET, from).seal('value');
      for (const to of labels) {
        if (to === from) expect(sealerFor(SECRET, to).open(sealed)).toBe('value');
        else expect(() => sealerFor(SECRET, to).open(sealed), `${from} → ${to}`).toThrow();
      }
    }
  });

  it('seals TOTP secrets apart from one-time codes', () => {
    expect(() => openNotifyCode(SECRET, sealTotpSecret(SECRET, 'JBSWY3DPEHPK3PXP'))).toThrow();
    expect(() => openTotpSecret(SECRET, sealNotifyCode(SECRET, '123456'))).toThrow();
  });
});

/** A store of its own (SQLite, or a scratch PostgreSQL database), migrated up to 0015. */
async function storeBefore0016(useSqlite: boolean): Promise<Db> {
  const dataDir = await mkdtemp(join(tmpdir(), 'verity-0016-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const scratch = useSqlite ? undefined : await createScratchDatabase(TEST_DATABASE_URL, 'mig');
  if (scratch) cleanups.push(() => scratch.drop());
  const db = await openDatabase({ dataDir, databaseUrl: scratch?.url });
  cleanups.push(() => db.destroy());
  const { error } = await new Migrator({ db, provider: migrationProvider() }).migrateTo('0015-drop-unused-user-indexes');
  expect(error).toBeUndefined();
  return db;
}

async function addAdminWithTotp(db: Db, email: string, sealed: string): Promise<number> {
  const at = '2026-01-01T00:00:00.000Z';
  const { rows } = await sql<{ id: number }>`insert into admins (email, password_hash, created_at) values (${email}, ${'x'}, ${at}) returning id`.execute(db);
  const id = rows[0]!.id;
  await sql`insert into admin_totp (admin_id, sealed_secret, enabled_at, last_counter, created_at) values (${id}, ${sealed}, ${at}, ${null}, ${at})`.execute(
    db,
  );
  return id;
}

async function storedSecret(db: Db, adminId: number): Promise<string> {
  const { rows } = await sql<{ sealed_secret: string }>`select sealed_secret from admin_totp where admin_id = ${adminId}`.execute(db);
  return rows[0]!.sealed_secret;
}

describe('migration 0016-admin-totp-seal-label', () => {
  it.each([
    ['SQLite', true],
    ['PostgreSQL', false],
  ] as const)('on %s, re-seals the TOTP secrets sealed under the notify label, and down undoes it', async (_name, sqlite) => {
    const db = await storeBefore0016(sqlite);
    const old = await addAdminWithTotp(db, 'old@example.com', sealNotifyCode(SECRET, 'JBSWY3DPEHPK3PXP'));
    // Written by a half-done earlier run: already under the new label, left as it is.
    const done = sealTotpSecret(SECRET, 'KRUGS4ZANFZSAYJA');
    const resealed = await addAdminWithTotp(db, 'done@example.com', done);

    await migrateToLatest(db, { secret: SECRET });
    const after = await storedSecret(db, old);
    expect(openTotpSecret(SECRET, after)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => openNotifyCode(SECRET, after)).toThrow();
    expect(await storedSecret(db, resealed)).toBe(done);

    const { error } = await new Migrator({ db, provider: migrationProvider({ secret: SECRET }) }).migrateTo('0015-drop-unused-user-indexes');
    expect(error).toBeUndefined();
    expect(openNotifyCode(SECRET, await storedSecret(db, old))).toBe('JBSWY3DPEHPK3PXP');
    expect(openNotifyCode(SECRET, await storedSecret(db, resealed))).toBe('KRUGS4ZANFZSAYJA');
  });

  it('asks for the server secret only when there are TOTP secrets to re-seal', async () => {
    const empty = await storeBefore0016(true);
    await expect(migrateToLatest(empty)).resolves.toBeUndefined();
    const withTotp = await storeBefore0016(true);
    await addAdminWithTotp(withTotp, 'a@example.com', sealNotifyCode(SECRET, 'JBSWY3DPEHPK3PXP'));
    await expect(migrateToLatest(withTotp)).rejects.toThrow(/0016-admin-totp-seal-label/);
  });
});
