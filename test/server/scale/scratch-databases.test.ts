import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDatabase, dropStaleRuns, newRunId, releaseDatabase, runId } from '../../helpers/postgres.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../helpers/scale-env.js';

/**
 * The test helpers' scratch databases and Redis prefixes: copies of a migrated template, and the
 * clean-up of what a killed run left behind, which must never touch a run still going.
 */
const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
const redis = new Redis(TEST_REDIS_URL);
const made: string[] = [];

beforeAll(async () => {
  await admin.connect();
});
afterAll(async () => {
  for (const name of made) await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
  redis.disconnect();
});

async function databases(): Promise<string[]> {
  const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'verity\\_%'`);
  return rows.map((r) => r.datname);
}

describe('scratch databases', () => {
  it('are copies of the run’s migrated template: tables there, no rows', async () => {
    const database = await acquireDatabase(TEST_DATABASE_URL);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      expect(database.name).toMatch(new RegExp(`^verity_test_${runId()}_[0-9a-f]{12}$`));
      const { rows } = await client.query<{ n: string }>('select count(*) as n from users');
      expect(Number(rows[0]!.n)).toBe(0);
      const migrations = await client.query<{ n: string }>('select count(*) as n from kysely_migration');
      expect(Number(migrations.rows[0]!.n)).toBeGreaterThan(0);
    } finally {
      await client.end();
      await releaseDatabase(database);
    }
    expect(await databases()).toContain(`verity_tmpl_${runId()}_0`);
  });

  it('left by a run that started hours ago are dropped, with its Redis keys; a younger run’s stay', async () => {
    const now = Date.now();
    const old = newRunId(now - 4 * 3600_000);
    const young = newRunId(now - 60_000);
    const oldDb = `verity_test_${old}_0123456789ab`;
    const youngDb = `verity_test_${young}_0123456789ab`;
    made.push(oldDb, youngDb);
    await admin.query(`create database "${oldDb}"`);
    await admin.query(`create database "${youngDb}"`);
    await redis.set(`verity_test_${old}_0123456789ab:bull:x`, '1');
    await redis.set(`verity_test_${young}_0123456789ab:bull:x`, '1');
    // Not ours by name: never touched.
    await redis.set(`verity:someone-else-${old}`, '1');

    await dropStaleRuns(TEST_DATABASE_URL, TEST_REDIS_URL, 3 * 3600_000, now);

    const left = await databases();
    expect(left).not.toContain(oldDb);
    expect(left).toContain(youngDb);
    expect(await redis.exists(`verity_test_${old}_0123456789ab:bull:x`)).toBe(0);
    expect(await redis.exists(`verity_test_${young}_0123456789ab:bull:x`)).toBe(1);
    expect(await redis.exists(`verity:someone-else-${old}`)).toBe(1);
    await redis.del(`verity_test_${young}_0123456789ab:bull:x`, `verity:someone-else-${old}`);
  });
});
