import type { Database as SqliteConnection } from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { sqliteConnectionOf, type Executor } from '../database.js';
import { isPostgres } from '../migrations/helpers.js';
import { allRows, prepareRaw, type PreparedRawStatement } from './raw-statements.js';

/**
 * A statement on a hot API path (issue 2: `GET /api/users/{id}`, `POST /api/users`, the list
 * search), written once in SQL with `?` placeholders that SQLite and PostgreSQL both accept (the
 * list search's are used on SQLite only).
 *
 * Why not the kysely builder there: building and compiling the query cost more than SQLite took
 * to run it, and better-sqlite3 building each row as an object with named properties cost more
 * than the B-tree lookup. So on SQLite the statement is prepared once and run directly on the
 * connection in raw (array) mode; rows become plain objects here. That is safe when
 * - the caller holds a transaction of this database (SQLite has one connection, so the open
 *   transaction is the caller's own), or
 * - no transaction is open: the statement then runs in autocommit, like any other.
 * When another request's transaction is open on the connection (between its awaits), the
 * statement goes through kysely instead, which waits for that transaction to finish rather than
 * reading its uncommitted rows. On PostgreSQL it always goes through kysely, precompiled
 * (placeholders as `$1`, `$2`, …), so only the build and compile steps are saved there.
 */
export class HotStatement<Row extends object> {
  readonly #sql: string;
  #postgresSql: string | undefined;
  readonly #prepared = new WeakMap<SqliteConnection, PreparedRawStatement<Row>>();

  constructor(sql: string) {
    this.#sql = sql;
  }

  /** Every row (for a data-changing statement: what its `returning` clause gives). */
  async all(ex: Executor, params: readonly unknown[]): Promise<Row[]> {
    const connection = sqliteConnectionOf(ex);
    if (connection && (ex.isTransaction || !connection.inTransaction)) return this.#allOnSqlite(connection, params);
    const result = await ex.executeQuery<Row>(CompiledQuery.raw(this.#textFor(ex, connection), [...params]));
    return [...result.rows];
  }

  /** The first row, if any. */
  async first(ex: Executor, params: readonly unknown[]): Promise<Row | undefined> {
    const rows = await this.all(ex, params);
    return rows[0];
  }

  /** Runs a statement that returns no rows; resolves to the number of rows it changed. */
  async run(ex: Executor, params: readonly unknown[]): Promise<number> {
    const connection = sqliteConnectionOf(ex);
    if (connection && (ex.isTransaction || !connection.inTransaction)) {
      return this.#prepare(connection).statement.run(...params).changes;
    }
    const result = await ex.executeQuery(CompiledQuery.raw(this.#textFor(ex, connection), [...params]));
    return Number(result.numAffectedRows ?? 0n);
  }

  #allOnSqlite(connection: SqliteConnection, params: readonly unknown[]): Row[] {
    const prepared = this.#prepare(connection);
    if (!prepared.toRow) {
      prepared.statement.run(...params);
      return [];
    }
    return allRows(prepared, params);
  }

  #prepare(connection: SqliteConnection): PreparedRawStatement<Row> {
    let prepared = this.#prepared.get(connection);
    if (!prepared) {
      prepared = prepareRaw<Row>(connection, this.#sql);
      this.#prepared.set(connection, prepared);
    }
    return prepared;
  }

  #textFor(ex: Executor, connection: SqliteConnection | undefined): string {
    if (connection || !isPostgres(ex)) return this.#sql;
    let n = 0;
    // The statements here hold no string literals with a `?` in them, so every `?` is a placeholder.
    this.#postgresSql ??= this.#sql.replace(/\?/g, () => `$${++n}`);
    return this.#postgresSql;
  }
}
