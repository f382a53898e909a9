import type { InvalidationBus } from '../cache/invalidation-bus.js';
import { InvalidationSignal } from '../cache/invalidation-signal.js';
import { sqliteConnectionOf, type Db } from './database.js';
import type { ApiKeyRow } from './schema.js';
import { SqliteCommitWatch } from './sqlite/sqlite-commit-watch.js';

/**
 * API keys by key hash, so authenticating a customer API request needs no database read (issue 2).
 * Only active keys are cached; an unknown or revoked key is looked up every time.
 *
 * A revoked key must be refused by every process at once:
 * - `revokeApiKey` (and any other change to a key) calls `apiKeysChanged()`, which drops the
 *   cache of this process and announces the change on the connected buses, so every other
 *   process drops its own as soon as the notice arrives (Redis pub/sub in scale-out). A notice
 *   that may have been lost (the bus reconnected) drops everything too.
 * - On SQLite another process (the CLI: `verity keys revoke` against the same data dir) writes
 *   the file directly, with no bus between them; SQLite's `data_version` tells the server that
 *   another connection committed something, and the cache is dropped then. It is asked only
 *   while the file system reports writes to the WAL, at most once a millisecond
 *   ({@link SqliteCommitWatch}), so such a revocation takes effect within a millisecond or so of
 *   its commit (sooner than a notice crosses Redis), and reads between writes ask nothing.
 * - On PostgreSQL without Redis there is no way to hear of another process's revocation, so
 *   there is no cache: every request reads its key (`enabled: false`).
 * - Invalidation may happen inside the revoking transaction, before its commit; a lookup just
 *   after it would read (and could cache) the key as still active. So for a short quiet period
 *   after each change nothing is cached.
 * - The TTL is only the safety net for a notice that never arrived.
 */
/** The quiet period is longer than any key-changing transaction takes to commit after its write. */
const keysChanged = new InvalidationSignal('api-keys', 1_000);

/** A key was revoked or changed: every process drops its cached keys. */
export function apiKeysChanged(): void {
  keysChanged.changed();
}

/** Ties this process's key caches to a bus (notices out and in). Returns the disconnect. */
export function connectApiKeyCaches(bus: InvalidationBus): () => void {
  return keysChanged.connect(bus);
}

interface Entry {
  row: ApiKeyRow;
  expires: number;
  generation: number;
}

export interface ApiKeyCacheOptions {
  /** False where another process's revocation could not be heard of (PostgreSQL without Redis). */
  enabled: boolean;
  ttlMs?: number;
}

/** At most this many keys are kept; a deployment has a handful, so this only bounds abuse. */
const MAX_ENTRIES = 10_000;

export class ApiKeyCache {
  readonly #entries = new Map<string, Entry>();
  readonly #enabled: boolean;
  readonly #ttlMs: number;
  /** On SQLite: whether another connection (process) committed, as a revocation would. */
  readonly #otherCommits: SqliteCommitWatch | undefined;

  constructor(
    db: Db,
    private readonly load: (keyHash: string) => Promise<ApiKeyRow | undefined>,
    options: ApiKeyCacheOptions,
  ) {
    this.#enabled = options.enabled;
    this.#ttlMs = options.ttlMs ?? 30_000;
    const connection = sqliteConnectionOf(db);
    this.#otherCommits = connection && this.#enabled ? new SqliteCommitWatch(connection) : undefined;
  }

  /** The active key with this hash, from the cache when it holds a current copy. */
  async find(keyHash: string): Promise<ApiKeyRow | undefined> {
    if (!this.#enabled) return this.load(keyHash);
    const now = Date.now();
    if (this.#otherCommits?.otherCommitted(now)) this.#entries.clear();
    const hit = this.#entries.get(keyHash);
    if (hit && hit.generation === keysChanged.generation && hit.expires > now) return hit.row;
    const seenGeneration = keysChanged.generation;
    const row = await this.load(keyHash);
    if (row && seenGeneration === keysChanged.generation && keysChanged.mayStore(now)) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
      this.#entries.set(keyHash, { row, expires: now + this.#ttlMs, generation: seenGeneration });
    } else {
      this.#entries.delete(keyHash);
    }
    return row;
  }

  /** Stops watching the database file. */
  close(): void {
    this.#otherCommits?.close();
  }
}
