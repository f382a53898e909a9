import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import type { ErrorLog } from '../../error-log.js';
import { typescriptPool } from '../../threads/typescript-pool.js';
import { sqliteConnectionOf, type Db, type Executor } from '../database.js';
import { HotStatement } from './hot-statements.js';
import type { UserListQuery } from '../repos/user-list-query.js';
import { searchUsersWith, type UserSearchResult } from './user-search.js';
import type { UserSearchTask } from './user-search-task.js';

const attached = new WeakMap<Executor, UserSearchThreads>();

/** Each thread holds a V8 isolate and a connection; more searches at once than this are rare on one server. */
const MAX_THREADS = 4;

/**
 * Worker threads that run `filter[search]` on an embedded (SQLite) database, each on a read-only
 * connection of its own. A search is the API's slowest read (about a millisecond at 100k users,
 * almost all of it in SQLite); on the server's one connection every search held up every other
 * request behind it, and searches ran one at a time on one core. In threads they run side by side
 * while the API thread answers other requests (issue 2: list p99 <= 50 ms at 100k users).
 *
 * A thread reads what was committed when its statement began, as a request on the server's
 * connection does (the server answers a write only after its commit).
 *
 * The threads start at the first search and then stay. Starting one takes a few hundred
 * milliseconds (a V8 isolate, tsx, the search modules), so until one is ready, and for good if
 * none can start, searches run on the server's connection as they would without threads.
 */
export class UserSearchThreads {
  readonly #db: Db;
  readonly #file: string;
  readonly #threads: number;
  readonly #log: ErrorLog | undefined;
  #pool: Piscina<UserSearchTask, UserSearchResult | null> | undefined;
  #starting: Promise<boolean> | undefined;
  #ready = false;
  #closed = false;

  private constructor(db: Db, file: string, threads: number, log: ErrorLog | undefined) {
    this.#db = db;
    this.#file = file;
    this.#threads = threads;
    this.#log = log;
  }

  /**
   * Gives the searches on `db` threads of their own (as many as the machine has cores, up to four,
   * unless `threads` says). Undefined unless `db` is a SQLite file: searches then stay on `db`.
   */
  static attach(db: Db, options: { threads?: number; log?: ErrorLog } = {}): UserSearchThreads | undefined {
    const connection = sqliteConnectionOf(db);
    if (!connection || connection.memory) return undefined;
    const threads = new UserSearchThreads(db, connection.name, options.threads ?? Math.min(MAX_THREADS, availableParallelism()), options.log);
    attached.set(db, threads);
    return threads;
  }

  /** The threads for searches on `ex`; none inside a transaction, whose uncommitted rows only its own connection sees. */
  static of(ex: Executor): UserSearchThreads | undefined {
    return ex.isTransaction ? undefined : attached.get(ex);
  }

  /** The search, run in a thread; undefined while no thread is ready (the caller runs it itself). */
  search(query: UserListQuery & { search: string }): Promise<UserSearchResult> | undefined {
    if (!this.#ready) {
      void this.whenReady();
      return undefined;
    }
    return this.#pool!.run({ file: this.#file, query }) as Promise<UserSearchResult>;
  }

  /** Starts the threads if they are not running; resolves to whether they take searches. */
  whenReady(): Promise<boolean> {
    this.#starting ??= this.#start();
    return this.#starting;
  }

  /** How many searches the threads have run. */
  get searchesRun(): number {
    // The task that opens the file is not a search.
    return Math.max(0, (this.#pool?.completed ?? 0) - 1);
  }

  async #start(): Promise<boolean> {
    this.#pool = typescriptPool<UserSearchTask, UserSearchResult | null>(new URL('./user-search-task.ts', import.meta.url), 'runUserSearch', {
      minThreads: this.#threads,
      maxThreads: this.#threads,
    });
    try {
      // A task without a query opens the file in a thread: once one has, the threads take the searches.
      await this.#pool.run({ file: this.#file, query: null });
      this.#ready = !this.#closed;
    } catch (err: unknown) {
      if (!this.#closed) this.#log?.error({ err }, 'user search threads could not start; searches run on the main thread');
    }
    return this.#ready;
  }

  /**
   * Stops the threads at once, with any search they are running (the server closes this after
   * its last request); later searches run on the database's own connection.
   */
  async close(): Promise<void> {
    if (attached.get(this.#db) === this) attached.delete(this.#db);
    this.#ready = false;
    this.#closed = true;
    await this.#pool?.destroy();
  }
}

/** The server's statements of the search, one per SQL text. */
const statements = new Map<string, HotStatement<object>>();

/**
 * `searchUsersWith` for the database `ex`: in a search thread when the database has them and one
 * is ready, else on `ex` itself (in a transaction, or without threads).
 */
export function searchUsersOnSqlite(ex: Executor, q: UserListQuery & { search: string }): Promise<UserSearchResult> {
  const inThread = UserSearchThreads.of(ex)?.search(q);
  if (inThread) return inThread;
  return searchUsersWith(<Row extends object>(text: string, params: readonly unknown[]) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = new HotStatement<object>(text);
      statements.set(text, statement);
    }
    return (statement as HotStatement<Row>).all(ex, params);
  }, q);
}
