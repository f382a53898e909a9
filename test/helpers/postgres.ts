import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../server/store/database.js';

/**
 * Scratch PostgreSQL databases for tests: `CREATE DATABASE verity_<label>_<run id>_<random>` on
 * the server of an admin URL (VERITY_TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test),
 * dropped again with `drop()` or by the run's teardown. Each test server gets its own, so tests
 * never see each other's rows, and runs at the same time never see each other's databases.
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

/** Set by the global setup, so one teardown can drop every database and Redis prefix of this run. */
export const RUN_ENV = 'VERITY_TEST_RUN_ID';

/**
 * A run id starts with the run's start time (seconds, base 36) and ends with 6 random hex digits:
 * random so that two runs at once never share a name, timed so that a later run can tell what a
 * killed run left behind (see `dropStaleRuns`).
 */
export function newRunId(now = Date.now()): string {
  return `${Math.floor(now / 1000).toString(36)}${randomBytes(3).toString('hex')}`;
}

export function runId(): string {
  // A process outside vitest (a bench) names its own run.
  return (process.env[RUN_ENV] ??= newRunId());
}

/** `verity_<label>_<run id>_<random>`: the name of every scratch database and Redis prefix. */
const SCRATCH_NAME = /^verity_[a-z]+_([0-9a-z]+[0-9a-f]{6})_[0-9a-f]+$/;

function scratchName(label: string): string {
  if (!/^[a-z]+$/.test(label)) throw new Error(`scratch label must be lowercase letters: ${label}`);
  return `verity_${label}_${runId()}_${randomBytes(6).toString('hex')}`;
}

/** The start time (ms) a run id carries, or undefined for a name that is not ours. */
function runStartedAt(id: string): number | undefined {
  const seconds = Number.parseInt(id.slice(0, -6), 36);
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

/** The URL of database `name` on the server of `adminUrl` (same user and options). */
function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function scratchDatabase(adminUrl: string, name: string): ScratchDatabase {
  let dropped = false;
  return {
    name,
    url: databaseUrl(adminUrl, name),
    async drop() {
      if (dropped) return;
      dropped = true;
      // FORCE ends connections a crashed process may have left behind (PostgreSQL 13+).
      await withAdmin(adminUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/**
 * An empty database (no tables): for tests of the migrations themselves, and the binary's own
 * `migrate`. `locale` makes it with that LC_COLLATE and LC_CTYPE instead of the server's default.
 */
export async function createScratchDatabase(adminUrl: string, label = 'test', locale?: 'C'): Promise<ScratchDatabase> {
  const name = scratchName(label);
  // The name is ours (letters, digits, _), so quoting it as an identifier is all the escaping it needs.
  const options = locale ? ` template template0 lc_collate '${locale}' lc_ctype '${locale}'` : '';
  await withAdmin(adminUrl, (c) => c.query(`create database "${name}"${options}`));
  return scratchDatabase(adminUrl, name);
}

/**
 * A database with every migration applied, as a fresh install has it before its first start:
 * copied (`CREATE DATABASE … TEMPLATE`) from one migrated template per run and server, which
 * takes a fraction of a second where migrating takes about two.
 */
export async function createMigratedDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const template = await migratedTemplate(adminUrl);
  const name = scratchName('test');
  await withAdmin(adminUrl, (c) => c.query(`create database "${name}" template "${template}"`));
  return scratchDatabase(adminUrl, name);
}

const templates = new Map<string, Promise<string>>();

/** The run's migrated template on this server; the first worker process to ask makes it. */
function migratedTemplate(adminUrl: string): Promise<string> {
  const key = new URL(adminUrl).host;
  let template = templates.get(key);
  if (!template) {
    template = makeTemplate(adminUrl);
    templates.set(key, template);
    template.catch(() => templates.delete(key));
  }
  return template;
}

async function makeTemplate(adminUrl: string): Promise<string> {
  const name = `verity_tmpl_${runId()}_0`;
  return withAdmin(adminUrl, async (c) => {
    // Worker processes of one run ask at the same time: a lock per run lets one of them build it.
    const lock = Number.parseInt(runId().slice(-6), 16);
    await c.query('select pg_advisory_lock($1, $2)', [7_262_002, lock]);
    try {
      const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [name]);
      if (rowCount) return name;
      await c.query(`create database "${name}"`);
      // Migrated through the server's own code; closed again before anything is copied from it
      // (PostgreSQL copies only a template nobody is connected to).
      const db = await openDatabase({ dataDir: '/nonexistent', databaseUrl: databaseUrl(adminUrl, name) });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      return name;
    } finally {
      await c.query('select pg_advisory_unlock($1, $2)', [7_262_002, lock]);
    }
  });
}

/** Drops every database this run created (global teardown). */
export async function dropRunDatabases(adminUrl: string, id = runId()): Promise<number> {
  return dropDatabasesWhere(adminUrl, (run) => run === id);
}

/**
 * Drops what runs that started more than `olderThanMs` ago left behind: a run that was killed
 * never reached its teardown. Runs still going (CI allows 90 minutes) are younger than that.
 */
export async function dropStaleRuns(adminUrl: string, redisUrl: string, olderThanMs = 3 * 3600_000, now = Date.now()): Promise<void> {
  const stale = (run: string) => {
    const started = runStartedAt(run);
    return started !== undefined && now - started > olderThanMs;
  };
  await dropDatabasesWhere(adminUrl, stale);
  await dropRedisRuns(redisUrl, stale);
}

async function dropDatabasesWhere(adminUrl: string, matches: (run: string) => boolean): Promise<number> {
  return withAdmin(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>(`select datname from pg_database where datname like 'verity\\_%'`);
    const names = rows
      .map((r) => r.datname)
      .filter((name) => {
        const run = SCRATCH_NAME.exec(name)?.[1];
        return run !== undefined && matches(run);
      });
    // Copies before their template: a template in use by a copy being made cannot be dropped.
    names.sort((a, b) => Number(a.startsWith('verity_tmpl_')) - Number(b.startsWith('verity_tmpl_')));
    for (const name of names) await c.query(`drop database if exists "${name}" with (force)`);
    return names.length;
  });
}

/** Deletes the keys of every Redis prefix of this run (global teardown; servers delete their own on close). */
export async function dropRunRedisPrefixes(redisUrl: string, id = runId()): Promise<void> {
  await dropRedisRuns(redisUrl, (run) => run === id);
}

async function dropRedisRuns(redisUrl: string, matches: (run: string) => boolean): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'verity_*', 'COUNT', 1000);
      const doomed = keys.filter((key) => {
        const run = SCRATCH_NAME.exec(key.slice(0, key.indexOf(':')))?.[1];
        return run !== undefined && matches(run);
      });
      if (doomed.length > 0) await redis.unlink(...doomed);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Test servers of one worker process reuse databases: copying a migrated one from the run's
 * template costs a few hundred milliseconds, emptying one a few, and an emptied database is what
 * a fresh one is after migrations: every table empty, every id sequence back at 1. The server's
 * own start then seeds it as on a fresh install. The global teardown drops them all.
 */
const idle: ScratchDatabase[] = [];
/** Databases being emptied or waiting in `idle`: not to be released again until acquired. */
const released = new Set<ScratchDatabase>();

export async function acquireDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const reused = idle.pop();
  if (reused) {
    released.delete(reused);
    return reused;
  }
  return createMigratedDatabase(adminUrl);
}

/** Empties the database of a closed test server and keeps it for the next one. */
export async function releaseDatabase(database: ScratchDatabase): Promise<void> {
  // Released twice (a server closed twice), it would sit in the pool twice and two later servers
  // would share it: one's close would then empty the other's tables under it (its API key gone: 401).
  if (released.has(database)) return;
  released.add(database);
  try {
    await withAdmin(database.url, async (c) => {
      const { rows } = await c.query<{ tablename: string }>(`select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely\\_%'`);
      const { rows: sequences } = await c.query<{ seq: string }>(`select sequencename as seq from pg_sequences where schemaname = 'public'`);
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
  url.searchParams.set('prefix', scratchName(label));
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
