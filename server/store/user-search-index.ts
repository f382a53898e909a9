import type { Database as SqliteConnection, Statement } from 'better-sqlite3';
import { sqliteConnectionOf, type Db } from './database.js';

/**
 * Fills SQLite's FTS5 user search index in batches, after the users' own commits (migration
 * 0009 says why). Between a user's commit and the next batch, searches find the user by scanning
 * the users above `users_search_state.indexed_upto` (see `listUsers`), so nothing is ever missing.
 *
 * Every process on the SQLite file may run this: each batch reads the high-water mark and moves
 * it in one IMMEDIATE transaction, so two processes never index the same user twice.
 */
export class UserSearchIndexer {
  readonly #connection: SqliteConnection;
  readonly #statements: { upto: Statement; last: Statement; insert: Statement; move: Statement };
  readonly #batch: number;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  private constructor(connection: SqliteConnection, batch: number) {
    this.#connection = connection;
    this.#batch = batch;
    this.#statements = {
      upto: connection.prepare('select indexed_upto from users_search_state where id = 1').pluck(),
      last: connection.prepare('select max(id) from (select id from users where id > ? order by id limit ?)').pluck(),
      insert: connection.prepare(
        'insert into users_search(rowid, username, first_name, last_name, email) select id, username, first_name, last_name, email from users where id > ? and id <= ?',
      ),
      move: connection.prepare('update users_search_state set indexed_upto = ? where id = 1'),
    };
  }

  /** The indexer of a SQLite database; undefined on PostgreSQL (its trigram index needs none). */
  static for(db: Db, batch = 2_000): UserSearchIndexer | undefined {
    const connection = sqliteConnectionOf(db);
    return connection ? new UserSearchIndexer(connection, batch) : undefined;
  }

  /**
   * Indexes up to one batch of the users not yet in the index; returns how many it indexed, or
   * `undefined` when the connection is inside another transaction (try again later).
   */
  indexBatch(): number | undefined {
    // Kysely transactions hold this same connection between their awaits; never write inside one.
    if (this.#connection.inTransaction) return undefined;
    const s = this.#statements;
    return this.#connection
      .transaction(() => {
        const upto = s.upto.get() as number;
        const last = s.last.get(upto, this.#batch) as number | null;
        if (last === null) return 0;
        const { changes } = s.insert.run(upto, last);
        s.move.run(last);
        return changes;
      })
      .immediate();
  }

  /** Runs batches every `everyMs` (sooner while a backlog lasts) until `stop()`. */
  start(everyMs = 50, log?: { error(obj: { err: unknown }, msg: string): void }): void {
    const tick = () => {
      if (this.#stopped) return;
      let indexed: number | undefined;
      try {
        indexed = this.indexBatch();
      } catch (err: unknown) {
        // A busy database (another process writing for longer than busy_timeout) or a closed one:
        // the users stay findable through the scan, and the next tick tries again.
        log?.error({ err }, 'user search index batch failed');
      }
      this.#timer = setTimeout(tick, indexed === this.#batch ? 0 : everyMs);
      this.#timer.unref();
    };
    this.#timer = setTimeout(tick, everyMs);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }
}
