import { statSync } from 'node:fs';
import type { Database as SqliteConnection } from 'better-sqlite3';
import type { Piscina } from 'piscina';
import type { ErrorLog } from '../../error-log.js';
import { typescriptPool } from '../../threads/typescript-pool.js';
import { sqliteConnectionOf, type Db } from '../database.js';
import type { WalCheckpointResult, WalCheckpointTask } from './wal-checkpoint-task.js';

/** SQLite's own threshold: a connection checkpoints after the commit that takes the WAL past it. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
/** While the thread checkpoints, the server's connection does only past this many pages (40 MB). */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;
/** How often an idle checkpointer looks at the WAL. */
const EVERY_MS = 100;
/** The thread starts once the WAL has been this large: a server that writes little never needs it. */
const START_AT_BYTES = 1 << 20;

export interface WalCheckpointerOptions {
  log?: ErrorLog | undefined;
  /** Defaults to {@link START_AT_BYTES}. */
  startAtBytes?: number;
  /** Defaults to {@link BACKSTOP_AUTOCHECKPOINT_PAGES}. */
  backstopPages?: number;
}

/**
 * Checkpoints an embedded (SQLite) database's WAL in a worker thread of its own, so that the
 * commits of requests seldom do. By default the connection that commits past 1,000 WAL pages
 * copies them back into the file and syncs it, on the server's one thread, and under a write-heavy
 * load that came every second or so: on `POST /api/users` at 100,000 users, moving it to a thread
 * raised the rate by about a quarter and cut p99 from 17 ms to 11 (Intel), or from 50-90 ms to
 * 25 (a four times slower AMD machine; issue 2). A PASSIVE checkpoint neither waits for nor blocks
 * the server's reads and writes; while commits keep coming the thread runs one after another.
 *
 * The WAL starts again from its beginning only when a write finds it all copied back, which a
 * thread racing a stream of commits seldom leaves it; so the server's connection keeps a backstop:
 * past {@link BACKSTOP_AUTOCHECKPOINT_PAGES} pages it checkpoints after a commit as before (by
 * then there is little left to copy), and the WAL restarts. That bounds it at about 40 MB.
 *
 * The thread starts once the WAL has reached a megabyte. If it cannot start or a checkpoint
 * fails, the connection checkpoints as SQLite does by default, and so it does again once this is
 * closed.
 */
export class WalCheckpointer {
  readonly #connection: SqliteConnection;
  readonly #wal: string;
  readonly #log: ErrorLog | undefined;
  readonly #startAtBytes: number;
  readonly #backstopPages: number;
  readonly #timer: NodeJS.Timeout;
  #pool: Piscina<WalCheckpointTask, WalCheckpointResult> | undefined;
  #checkpointing = false;
  #stopped = false;
  #completed = 0;
  #lastResult: WalCheckpointResult | undefined;
  /** Callers of {@link truncate} waiting for the next TRUNCATE checkpoint to succeed. */
  #truncateWaiters: (() => void)[] = [];

  private constructor(connection: SqliteConnection, options: WalCheckpointerOptions) {
    this.#connection = connection;
    this.#wal = `${connection.name}-wal`;
    this.#log = options.log;
    this.#startAtBytes = options.startAtBytes ?? START_AT_BYTES;
    this.#backstopPages = options.backstopPages ?? BACKSTOP_AUTOCHECKPOINT_PAGES;
    this.#timer = setInterval(() => this.#tick(), EVERY_MS).unref();
  }

  /** Checkpoints `db` in a thread; undefined unless `db` is a SQLite file. */
  static attach(db: Db, options: WalCheckpointerOptions = {}): WalCheckpointer | undefined {
    const connection = sqliteConnectionOf(db);
    return connection ? WalCheckpointer.forConnection(connection, options) : undefined;
  }

  /** Checkpoints the WAL of `connection`'s file in a thread; undefined for an in-memory database. */
  static forConnection(connection: SqliteConnection, options: WalCheckpointerOptions = {}): WalCheckpointer | undefined {
    return connection.memory ? undefined : new WalCheckpointer(connection, options);
  }

  /** Whether the thread is taking the checkpoints. */
  get running(): boolean {
    return this.#completed > 0 && !this.#stopped;
  }

  /** How many checkpoints the thread has run. */
  get checkpoints(): number {
    return this.#completed;
  }

  /**
   * Empties the WAL after a deletion (issue 18, point 5): a TRUNCATE checkpoint in the thread, once
   * no checkpoint is under way there, retried while readers or a writer keep it busy. The WAL holds
   * old images of every page a deleted row was on; with `secure_delete` the file's copy is zeroed
   * by the deletion itself, and the checkpoint copies that back and drops the old images.
   * Resolves once a TRUNCATE succeeded (or the database is closing).
   */
  truncate(): Promise<void> {
    if (this.#stopped) {
      if (this.#connection.open) this.#connection.pragma('wal_checkpoint(TRUNCATE)');
      return Promise.resolve();
    }
    const done = new Promise<void>((resolve) => this.#truncateWaiters.push(resolve));
    setImmediate(() => this.#tick());
    return done;
  }

  #tick(): void {
    if (this.#stopped || this.#checkpointing) return;
    const waiters = this.#truncateWaiters.splice(0);
    const truncate = waiters.length > 0;
    if (!this.#pool) {
      if (!truncate && walBytes(this.#wal) < this.#startAtBytes) return;
      this.#pool = typescriptPool<WalCheckpointTask, WalCheckpointResult>(new URL('./wal-checkpoint-task.ts', import.meta.url), 'runWalCheckpoint', {
        minThreads: 1,
        maxThreads: 1,
      });
    }
    this.#checkpointing = true;
    this.#pool
      .run({ file: this.#connection.name, truncate })
      .then(
        (result) => {
          if (truncate) {
            // Busy: readers on an older snapshot or a writer outlasted the wait; the next tick retries.
            if (result.busy === 0 || this.#stopped) for (const resolve of waiters) resolve();
            else this.#truncateWaiters.unshift(...waiters);
          }
          if (this.#stopped) return;
          // The first checkpoint done here: the connection's own become the backstop.
          if (++this.#completed === 1) this.#connection.pragma(`wal_autocheckpoint = ${this.#backstopPages}`);
          // The WAL changed since the last one: commits are coming, so copy them back now rather
          // than in 100 ms. An idle WAL answers the same twice and the loop stops. Past the
          // backstop the thread pauses too, so that the connection's checkpoint after its next
          // commit does not find the thread's under way and give up, and the WAL restarts.
          const changed = result.log !== this.#lastResult?.log || result.checkpointed !== this.#lastResult.checkpointed;
          this.#lastResult = result;
          if (changed && result.log < this.#backstopPages) setImmediate(() => this.#tick());
        },
        (err: unknown) => {
          this.#truncateWaiters.unshift(...waiters);
          if (this.#stopped) return;
          this.#log?.error({ err }, 'the WAL checkpoint thread failed; the server checkpoints in its commits again');
          void this.close();
        },
      )
      .finally(() => {
        this.#checkpointing = false;
      });
  }

  /** Stops the thread (before the database closes) and gives the checkpoints back to the server's connection. */
  async close(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    if (this.#connection.open) this.#connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    await this.#pool?.destroy();
    // Truncations still asked for are done on the server's connection (the thread is gone).
    const waiters = this.#truncateWaiters.splice(0);
    if (waiters.length > 0 && this.#connection.open) this.#connection.pragma('wal_checkpoint(TRUNCATE)');
    for (const resolve of waiters) resolve();
  }
}

function walBytes(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
