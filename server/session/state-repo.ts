import type { Executor } from '../store/database.js';
import { isPostgres } from '../store/migrations/helpers.js';
import { sdb } from './tables.js';

/**
 * Per-method progress kept between calls, one JSON document per user and key (table
 * `method_state`). Each owner declares its own shape with {@link methodState}; the session core
 * keeps the flow's own under `_flow`.
 */
export interface MethodState<T> {
  read(ex: Executor, userId: number): Promise<T | undefined>;
  /**
   * {@link read} inside a transaction `trx`, holding the state until it ends: the per-user,
   * per-method lock under a read-check-write of the method's other rows (its uploads). On
   * PostgreSQL the row is locked (`FOR UPDATE`; a concurrent `readLocked` or `update` waits for
   * the commit, then reads what it wrote); SQLite runs one transaction at a time.
   */
  readLocked(trx: Executor, userId: number): Promise<T | undefined>;
  write(ex: Executor, userId: number, data: T, now: Date): Promise<void>;
  clear(ex: Executor, userId: number): Promise<void>;
  /**
   * Reads, changes and writes the state as one step that requests at the same moment cannot
   * interleave: the write names the document it read, and a write that finds another document
   * there reads again and re-runs `change` (which may throw to refuse, e.g. no attempts left).
   * For counters that limit what a user may try.
   */
  update<R>(ex: Executor, userId: number, now: Date, change: (previous: T | undefined) => { next: T; result: R }): Promise<R>;
}

/** Rounds of read-and-retry before a contended update gives up; far above real contention. */
const UPDATE_ROUNDS = 20;

/** The typed state stored under `key` (a method key, or `_flow`). */
export function methodState<T>(key: string): MethodState<T> {
  return {
    async read(ex, userId) {
      const row = await sdb(ex).selectFrom('method_state').select('data').where('user_id', '=', userId).where('method_key', '=', key).executeTakeFirst();
      return row ? (JSON.parse(row.data) as T) : undefined;
    },
    async readLocked(trx, userId) {
      let query = sdb(trx).selectFrom('method_state').select('data').where('user_id', '=', userId).where('method_key', '=', key);
      if (isPostgres(trx)) query = query.forUpdate();
      const row = await query.executeTakeFirst();
      return row ? (JSON.parse(row.data) as T) : undefined;
    },
    async write(ex, userId, data, now) {
      const json = JSON.stringify(data);
      await sdb(ex)
        .insertInto('method_state')
        .values({ user_id: userId, method_key: key, data: json, updated_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['user_id', 'method_key']).doUpdateSet({ data: json, updated_at: now.toISOString() }))
        .execute();
    },
    async clear(ex, userId) {
      await sdb(ex).deleteFrom('method_state').where('user_id', '=', userId).where('method_key', '=', key).execute();
    },
    async update(ex, userId, now, change) {
      for (let round = 0; round < UPDATE_ROUNDS; round++) {
        const row = await sdb(ex).selectFrom('method_state').select('data').where('user_id', '=', userId).where('method_key', '=', key).executeTakeFirst();
        const { next, result } = change(row ? (JSON.parse(row.data) as T) : undefined);
        const json = JSON.stringify(next);
        const at = now.toISOString();
        const written = row
          ? await sdb(ex)
              .updateTable('method_state')
              .set({ data: json, updated_at: at })
              .where('user_id', '=', userId)
              .where('method_key', '=', key)
              .where('data', '=', row.data)
              .executeTakeFirst()
          : await sdb(ex)
              .insertInto('method_state')
              .values({ user_id: userId, method_key: key, data: json, updated_at: at })
              .onConflict((oc) => oc.columns(['user_id', 'method_key']).doNothing())
              .executeTakeFirst();
        const rows = 'numUpdatedRows' in written ? written.numUpdatedRows : (written.numInsertedOrUpdatedRows ?? 0n);
        if (rows > 0n) return result;
      }
      throw new Error(`method_state ${key}: the update kept meeting other writes`);
    },
  };
}

/** The flow as a whole: when `POST /session/complete` was called. */
export const flowCompletion = methodState<{ completed_at: string | null }>('_flow');
