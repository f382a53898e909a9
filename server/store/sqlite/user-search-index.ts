import type { Database as SqliteConnection, Statement } from 'better-sqlite3';
import type { ErrorLog } from '../../error-log.js';
import { sqliteConnectionOf, type Db } from '../database.js';

/**
 * Fills SQLite's FTS5 user search index in batches, after the users' own commits (migration
 * 0009 says why). Between a user's commit and the next batch, searches find the user by scanning
 * the users above `users_search_state.indexed_upto` (see `listUsers`), so nothing is ever missing.
 *
 * Every process on the SQLite file may run this: each batch reads the high-water mark and moves
 * it in one IMMEDIATE transaction, so two processes never index the same user twice.
 *
 * Each batch adds a segment to the index, and a search reads every segment: with the segments of
 * 50 batches a search took twice as long as with one (issue 2). FTS5 merges them only when four
 * pile up on a level; migration 0010 makes that two, and when the indexer is idle it does the
 * merge work in small steps (`mergeStep`), so writers never wait long behind it.
 */
export class UserSearchIndexer {
  readonly #connection: SqliteConnection;
  readonly #statements: {
    pending: Statement;
    upto: Statement;
    last: Statement;
    insert: Statement;
    move: Statement;
    merge: Statement;
    changes: Statement;
  };
  readonly #batch: number;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  /** Segments may wait to be merged (true at start: an earlier run may have left some). */
  #unmerged = true;

  private constructor(connection: SqliteConnection, batch: number) {
    this.#connection = connection;
    this.#batch = batch;
    this.#statements = {
      pending: connection.prepare('select exists (select 1 from users where id > (select indexed_upto from users_search_state where id = 1))').pluck(),
      upto: connection.prepare('select indexed_upto from users_search_state where id = 1').pluck(),
      last: connection.prepare('select max(id) from (select id from users where id > ? order by id limit ?)').pluck(),
      insert: connection.prepare(
        'insert into users_search(rowid, username, first_name, last_name, email) select id, username, first_name, last_name, email from users where id > ? and id <= ?',
      ),
      move: connection.prepare('update users_search_state set indexed_upto = ? where id = 1'),
      merge: connection.prepare(`insert into users_search(users_search, rank) values ('merge', ?)`),
      changes: connection.prepare('select total_changes()').pluck(),
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
    // Most ticks find nothing to index: a plain read says so without taking the write lock, which
    // the API's writers and other processes (the CLI) would otherwise queue behind 20 times a second.
    if (!s.pending.get()) return 0;
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

  /**
   * Does up to `pages` pages of FTS5's segment merging; returns false once there is nothing left
   * to merge, `undefined` when the connection is inside another transaction.
   */
  mergeStep(pages = 64): boolean | undefined {
    if (this.#connection.inTransaction) return undefined;
    const s = this.#statements;
    return this.#connection
      .transaction(() => {
        const before = s.changes.get() as number;
        s.merge.run(pages);
        // FTS5's documented signal: a merge that did any work moves total_changes() by 2 or more.
        return (s.changes.get() as number) - before >= 2;
      })
      .immediate();
  }

  /**
   * Runs batches every `everyMs` (sooner while a backlog lasts) until `stop()`; when there is
   * nothing to index, merges the index's segments a step at a time instead.
   */
  start(everyMs = 50, log?: ErrorLog): void {
    const tick = () => {
      if (this.#stopped) return;
      let indexed: number | undefined;
      try {
        indexed = this.indexBatch();
        if (indexed) this.#unmerged = true;
        else if (indexed === 0 && this.#unmerged) {
          const merged = this.mergeStep();
          if (merged === false) this.#unmerged = false;
          // More merge work waits: come back at once, as for an indexing backlog.
          if (merged) indexed = this.#batch;
        }
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
