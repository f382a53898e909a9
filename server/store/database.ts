import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { prepareForReads } from './sqlite/sqlite-connection.js';
import { withStatementCache } from './sqlite/statement-cache.js';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import { isPostgres, type MigrationContext } from './migrations/helpers.js';
import type { Database } from './schema.js';
import { migrationProvider } from './migrations/index.js';

export type Db = Kysely<Database>;
/** A connection or an open transaction: repositories accept either so callers compose them atomically. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** The tables a method declares of its own (`methods/<key>/tables.ts`), as kysely's `withTables` takes them. */
export type OwnTables = Record<string, object>;
/** A connection or transaction typed with a method's own tables as well. */
export type ExecutorWith<T extends OwnTables> = Kysely<Database & T> | Transaction<Database & T>;

/**
 * What each method's tables module exports as its `xdb(ex)`: the same connection or transaction,
 * typed with the method's tables as well (one function for every method's tables).
 */
export function withOwnTables<T extends OwnTables>(): (ex: Executor) => ExecutorWith<T> {
  return (ex) => ex.withTables<T>() as ExecutorWith<T>;
}

/**
 * The better-sqlite3 connection under each SQLite database, keyed by the database's dialect
 * adapter, which its transactions share (so a transaction finds the connection too). Read by
 * `hot-statements.ts`, which runs the hottest API statements on it directly.
 */
const sqliteConnections = new WeakMap<object, SQLite.Database>();

/** The SQLite connection under `ex` (a database or one of its transactions); undefined on PostgreSQL. */
export function sqliteConnectionOf(ex: Executor): SQLite.Database | undefined {
  return sqliteConnections.get(ex.getExecutor().adapter);
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
}

/** Opens the database chosen by the configuration: PostgreSQL when a URL is given, else SQLite. */
export async function openDatabase(options: DatabaseOptions): Promise<Db> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    return new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.databaseUrl, max: 10 }) }),
    });
  }
  const file = join(options.dataDir, 'verity.sqlite');
  const sqlite = new SQLite(file);
  // WAL lets readers run while the worker writes; busy_timeout rides out short write locks.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Deleted rows are overwritten with zeros in the file, not only unlinked, so a deleted user's
  // data cannot be read back from its free space (issue 18, point 5; docs/security.md).
  sqlite.pragma('secure_delete = ON');
  // Statement journals (every savepoint, every insert that fires a trigger) stay in memory instead
  // of spilling to temporary files past 64 KiB: a user insert touches a dozen indexes and the
  // search index, and the spill's file I/O cost POST /api/users about a tenth (issue 2).
  sqlite.pragma('temp_store = MEMORY');
  prepareForReads(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  sqliteConnections.set(db.getExecutor().adapter, sqlite);
  return db;
}

/**
 * Brings the schema up to date; safe to run on every start. Data migrations that seal secrets need
 * the server secret in `context` (only when there are rows to seal).
 */
export async function migrateToLatest(db: Db, context: MigrationContext = {}): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(context) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, { cause: error });
  }
}

/** An arbitrary constant naming the PostgreSQL advisory lock that serialises start-up work. */
const STARTUP_LOCK = 7_262_001;

/**
 * Runs start-up work (migrations, default data) in one process at a time. On PostgreSQL many API
 * and worker processes may boot at once against one database; an advisory lock held on one
 * connection makes the others wait and then find the work done. SQLite is one process: run it.
 */
export async function withStartupLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return work();
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${STARTUP_LOCK})`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK})`.execute(conn);
    }
  });
}
