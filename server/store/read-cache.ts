import type { InvalidationBus } from '../cache/invalidation-bus.js';
import { InvalidationSignal } from '../cache/invalidation-signal.js';
import type { Executor } from './database.js';

/**
 * A short-lived cache for rarely written, often read rows (account settings, templates), so the
 * hot API paths do not re-read them on every request.
 * - Any write through the repositories calls `invalidateReadCaches()`, so this process never
 *   serves a stale value after its own write.
 * - Other processes hear of the write at once over the invalidation bus (Redis pub/sub in
 *   scale-out, see `connectReadCaches`); the TTL stays as the safety net for a lost notice.
 * - Reads inside a transaction bypass the cache, so uncommitted data is never cached.
 * - Writers may invalidate inside a transaction, before their commit; a read just after that
 *   could fetch (and cache) the row as it was before the commit. So for a short quiet period
 *   after each invalidation nothing is cached: reads go to the database until the writer's
 *   transaction has surely committed.
 */
/** The quiet period is longer than any settings or template transaction takes to commit after its write. */
const rowsChanged = new InvalidationSignal('read-cache', 1_000);

/** Drops every cached row, in this process and (through the connected buses) in every other. */
export function invalidateReadCaches(): void {
  rowsChanged.changed();
}

/**
 * Ties this process's read caches to a bus: writes here are announced on it, and notices from
 * other processes (or a gap in them) drop the caches here. Returns the disconnect.
 */
export function connectReadCaches(bus: InvalidationBus): () => void {
  return rowsChanged.connect(bus);
}

interface Entry<T> {
  value: T;
  expires: number;
  generation: number;
}

export class ReadCache<T> {
  readonly #entries = new WeakMap<object, Map<string, Entry<T>>>();
  constructor(private readonly ttlMs = 2_000) {}

  async get(ex: Executor, key: string, load: () => Promise<T>): Promise<T> {
    if (ex.isTransaction) return load();
    let perDb = this.#entries.get(ex);
    if (!perDb) {
      perDb = new Map();
      this.#entries.set(ex, perDb);
    }
    const hit = perDb.get(key);
    const now = Date.now();
    if (hit && hit.generation === rowsChanged.generation && hit.expires > now) return hit.value;
    const seenGeneration = rowsChanged.generation;
    const value = await load();
    if (rowsChanged.mayStore(now)) perDb.set(key, { value, expires: now + this.ttlMs, generation: seenGeneration });
    else perDb.delete(key);
    return value;
  }
}
