import type { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from './blobs/blob-store.js';
import type { InvalidationBus } from './cache/invalidation-bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Queue } from './queue/queue.js';
import type { Db } from './store/database.js';

/** The adapters a running Verity works with; built once at boot and handed to every module. */
export interface AppContext {
  config: Config;
  db: Db;
  queue: Queue;
  blobs: BlobStore;
  clock: Clock;
  log: FastifyBaseLogger;
  /**
   * In-process signals. `outbox` is emitted after a transaction that wrote events commits, so the
   * relay picks them up at once instead of at its next poll.
   */
  signals: EventEmitter<{ outbox: [] }>;
  /**
   * "This changed" notices to every process of this Verity (caches, live progress): in-process
   * embedded, Redis pub/sub in scale-out. See `server/cache/invalidation-bus.ts`.
   */
  bus: InvalidationBus;
  /**
   * Removes what deleted rows leave in the store's files, after a user's deletion: on SQLite it
   * empties the WAL once its frames are back in the file (`WalCheckpointer.truncate`); absent where
   * there is nothing of the kind to do (PostgreSQL, in-memory SQLite). See docs/security.md.
   */
  afterErasure?: () => Promise<void>;
}
