import type { Executor } from '../store/database.js';
import { sdb } from './tables.js';

/**
 * Per-method progress kept between calls, one JSON document per user and key (table
 * `method_state`). Each owner declares its own shape with {@link methodState}; the session core
 * keeps the flow's own under `_flow`.
 */
export interface MethodState<T> {
  read(ex: Executor, userId: number): Promise<T | undefined>;
  write(ex: Executor, userId: number, data: T, now: Date): Promise<void>;
  clear(ex: Executor, userId: number): Promise<void>;
}

/** The typed state stored under `key` (a method key, or `_flow`). */
export function methodState<T>(key: string): MethodState<T> {
  return {
    async read(ex, userId) {
      const row = await sdb(ex).selectFrom('method_state').select('data').where('user_id', '=', userId).where('method_key', '=', key).executeTakeFirst();
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
  };
}

/** The flow as a whole: when `POST /session/complete` was called. */
export const flowCompletion = methodState<{ completed_at: string | null }>('_flow');
