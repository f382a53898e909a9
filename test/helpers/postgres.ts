import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Scratch PostgreSQL databases for tests: `CREATE DATABASE verity_test_<random>` on the server of
 * an admin URL (VERITY_TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test), dropped
 * again with `drop()`. Each test server gets its own, so tests never see each other's rows.
 */
export interface ScratchDatabase {
  name: string;
  /** The URL of the new database (same server, user and options as the admin URL). */
  url: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Set by the global setup, so one teardown can drop every database of this run. */
export const RUN_ENV = 'VERITY_TEST_RUN_ID';

function runId(): string {
  return process.env[RUN_ENV] ?? 'adhoc';
}

export async function createScratchDatabase(adminUrl: string, label = 'test'): Promise<ScratchDatabase> {
  const name = `verity_${label}_${runId()}_${randomBytes(6).toString('hex')}`;
  // The name is ours (hex), so quoting it as an identifier is all the escaping it needs.
  await withAdmin(adminUrl, (c) => c.query(`create database "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      // FORCE ends connections a crashed process may have left behind (PostgreSQL 13+).
      await withAdmin(adminUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** Drops every database this run created (global teardown; also clears what a killed run left). */
export async function dropRunDatabases(adminUrl: string, id = runId()): Promise<number> {
  return withAdmin(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [`verity\\_%\\_${id}\\_%`]);
    for (const { datname } of rows) await c.query(`drop database if exists "${datname}" with (force)`);
    return rows.length;
  });
}

/**
 * Test servers of one worker process reuse databases: creating and migrating one costs about two
 * seconds, emptying one (TRUNCATE … RESTART IDENTITY) a few milliseconds, and an emptied database
 * is what a fresh one is after migrations: every table empty, every id sequence back at 1. The
 * server's own start then seeds it as on a fresh install. The global teardown drops them all.
 */
const idle: ScratchDatabase[] = [];

export async function acquireDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const reused = idle.pop();
  if (reused) return reused;
  return createScratchDatabase(adminUrl);
}

/** Empties the database of a closed test server and keeps it for the next one. */
export async function releaseDatabase(database: ScratchDatabase): Promise<void> {
  try {
    await withAdmin(database.url, async (c) => {
      const { rows } = await c.query<{ tablename: string }>(
        `select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely\\_%'`,
      );
      const { rows: sequences } = await c.query<{ seq: string }>(
        `select sequencename as seq from pg_sequences where schemaname = 'public'`,
      );
      // DELETE with foreign-key triggers off is far quicker than TRUNCATE on tables this small
      // (TRUNCATE makes new files for every table and index); then every id starts again at 1.
      await c.query(
        [
          'begin',
          'set local synchronous_commit = off',
          'set local session_replication_role = replica',
          ...rows.map((r) => `delete from "${r.tablename}"`),
          ...sequences.map((q) => `alter sequence "${q.seq}" restart with 1`),
          'commit',
        ].join(';\n'),
      );
    });
    idle.push(database);
  } catch {
    await database.drop();
  }
}

/** A Redis key prefix of its own per test server, so parallel servers share one Redis safely. */
export function scratchRedisUrl(redisUrl: string, label = 'test'): string {
  const url = new URL(redisUrl);
  url.searchParams.set('prefix', `verity_${label}_${randomBytes(6).toString('hex')}`);
  return url.toString();
}

/** Deletes every key under the URL's prefix (after a test server closed). */
export async function dropRedisPrefix(redisUrlWithPrefix: string): Promise<void> {
  const url = new URL(redisUrlWithPrefix);
  const prefix = url.searchParams.get('prefix');
  if (!prefix) throw new Error('no prefix: refusing to clear a whole Redis');
  url.searchParams.delete('prefix');
  const redis = new Redis(url.toString(), { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
