import type { Executor } from './database.js';

/**
 * A short-lived cache for rarely written, often read rows (account settings, templates), so the
 * hot API paths do not re-read them on every request.
 * - Any write through the repositories calls `invalidateReadCaches()`, so this process never
 *   serves a stale value after its own write.
 * - Other processes (scale-out) see a change within the TTL.
 * - Reads inside a transaction bypass the cache, so uncommitted data is never cached.
 */
let generation = 0;

export function invalidateReadCaches(): void {
  generation++;
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
    if (hit && hit.generation === generation && hit.expires > now) return hit.value;
    const seenGeneration = generation;
    const value = await load();
    perDb.set(key, { value, expires: now + this.ttlMs, generation: seenGeneration });
    return value;
  }
}
