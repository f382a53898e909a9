import type { Statement } from 'better-sqlite3';
import type { Transaction } from 'kysely';
import { sqliteConnectionOf, type Db } from '../database.js';
import type { Database } from '../schema.js';

type Work<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Enough to share one commit among every request in flight, few enough to keep latency short. */
const MAX_BATCH = 64;

/**
 * Group commit on SQLite: the transactions that requests ask for in the same turn of the event
 * loop run one after another inside a single database transaction, each in a savepoint of its
 * own, and share its commit. On `POST /api/users` the commit (the WAL write and, above all, the
 * FTS5 search index writing a new segment per transaction) cost more than the inserts (issue 2).
 *
 * Each piece of work sees and does exactly what it would in a transaction of its own: it runs
 * alone on the one connection, sees the earlier pieces' rows (as it would after their commits),
 * and a piece that throws is rolled back to its savepoint without touching the others. Nobody
 * is answered before the commit: if the commit fails, every piece of the batch fails with it.
 * A piece must only use the transaction it is given (as with `db.transaction()`).
 *
 * PostgreSQL runs transactions side by side on a connection pool, so there each piece simply
 * gets a transaction of its own.
 */
export function groupTransaction<T>(db: Db, work: Work<T>): Promise<T> {
  if (!sqliteConnectionOf(db)) return db.transaction().execute(work);
  let group = groups.get(db);
  if (!group) {
    group = new GroupCommit(db);
    groups.set(db, group);
  }
  return group.run(work);
}

const groups = new WeakMap<Db, GroupCommit>();

class GroupCommit {
  #pending: Pending[] = [];
  #scheduled = false;
  #running = false;

  #prepared: { open: Statement; release: Statement; rollback: Statement } | undefined;

  constructor(private readonly db: Db) {}

  /** Savepoint statements, prepared once and run straight on the connection the batch's transaction holds. */
  #savepoints(): { open: Statement; release: Statement; rollback: Statement } {
    const connection = sqliteConnectionOf(this.db)!;
    this.#prepared ??= {
      open: connection.prepare('savepoint group_piece'),
      release: connection.prepare('release group_piece'),
      rollback: connection.prepare('rollback to group_piece'),
    };
    return this.#prepared;
  }

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    // After the I/O callbacks of this turn: every request that arrived with this one joins it.
    setImmediate(() => void this.#flush());
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    this.#running = true;
    const batch = this.#pending.splice(0, MAX_BATCH);
    const savepoints = this.#savepoints();
    const outcomes: Outcome[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const piece of batch) {
          savepoints.open.run();
          try {
            outcomes.push({ ok: true, value: await piece.work(trx) });
            savepoints.release.run();
          } catch (error: unknown) {
            savepoints.rollback.run();
            savepoints.release.run();
            outcomes.push({ ok: false, error });
          }
        }
      });
      batch.forEach((piece, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) piece.resolve(outcome.value);
        else piece.reject(outcome.error);
      });
    } catch (error: unknown) {
      // The commit (or the transaction itself) failed: nothing of the batch was stored.
      batch.forEach((piece, i) => {
        const outcome = outcomes[i];
        piece.reject(outcome && !outcome.ok ? outcome.error : error);
      });
    } finally {
      this.#running = false;
      if (this.#pending.length > 0) this.#schedule();
    }
  }
}
