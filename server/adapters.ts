import { access, constants } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Redis, RedisOptions } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { LocalBlobStore } from './blobs/local-blob-store.js';
import type { BlobStore } from './blobs/blob-store.js';
import { LocalInvalidationBus, RedisInvalidationBus, type InvalidationBus } from './cache/invalidation-bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { ReadinessCheck } from './http/health/routes.js';
import { memoryLimiterFactory, type LimiterFactory } from './http/limiter-factory.js';
import { addQueueDepthSource } from './metrics/metrics.js';
import type { Queue } from './queue/queue.js';
import { TableQueue, type Logger } from './queue/table-queue.js';
import { openDatabase, type Db } from './store/database.js';
import { liveJobCounts } from './store/repos/jobs-repo.js';

/** The adapters one Verity runs on, chosen from the configuration (or handed in by a caller). */
export interface Adapters {
  db: Db;
  queue: Queue;
  blobs: BlobStore;
  limiterFactory: LimiterFactory;
  /** "This changed" notices between processes: in-process embedded, Redis pub/sub in scale-out. */
  bus: InvalidationBus;
  /** What `/readyz` checks. */
  checks: ReadinessCheck[];
  /** Closes what the adapters opened besides the database (Redis connections, S3 client). */
  close(): Promise<void>;
}

export interface RedisLocation {
  /** The URL ioredis connects to (our own `prefix` parameter removed). */
  url: string;
  /** Prefix of every key Verity writes (BullMQ queues, rate-limit counters). */
  prefix: string;
}

/**
 * `VERITY_REDIS_URL=redis://[user:pass@]host:6379[/db][?prefix=name]`: `prefix` (default `verity`)
 * namespaces every key, so several deployments (or test servers) can share one Redis.
 */
export function parseRedisUrl(redisUrl: string): RedisLocation {
  const url = new URL(redisUrl);
  const prefix = url.searchParams.get('prefix') ?? 'verity';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(prefix)) throw new Error('The prefix of VERITY_REDIS_URL may only use letters, digits, _ . -');
  url.searchParams.delete('prefix');
  return { url: url.toString(), prefix };
}

export interface AdapterChoice {
  config: Config;
  clock: Clock;
  log: Logger;
  /** Adapters the caller chose itself win over the configuration. */
  db?: Db | undefined;
  queue?: Queue | undefined;
  blobs?: BlobStore | undefined;
  limiterFactory?: LimiterFactory | undefined;
}

/**
 * Embedded default: SQLite in the data dir, the table queue, blobs under `data/blobs`, in-memory
 * limits. `VERITY_DATABASE_URL` switches to PostgreSQL, `VERITY_REDIS_URL` to BullMQ, Redis
 * limits and the Redis bus, `VERITY_BLOB_URL` to an S3-compatible store; each independently of the
 * others. An adapter the caller hands in is used as it is: nothing is opened for the one it replaces.
 */
export async function openAdapters(choice: AdapterChoice): Promise<Adapters> {
  const { config, clock, log } = choice;
  const closers: (() => Promise<void> | void)[] = [];
  const checks: ReadinessCheck[] = [];

  const db = choice.db ?? (await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }));
  checks.push({ name: 'database', check: async () => void (await sql`select 1`.execute(db)) });

  let queue = choice.queue;
  let limiterFactory = choice.limiterFactory;
  let bus: InvalidationBus | undefined;
  if (config.redisUrl) {
    const location = parseRedisUrl(config.redisUrl);
    // The scale-out libraries load only when the configuration picks them: the embedded server
    // never loads ioredis, BullMQ or the AWS SDK (test/server/adapters.test.ts).
    const { Redis } = await import('ioredis');
    const connections: Redis[] = [];
    const connection = (options: RedisOptions): Redis => {
      const redis = new Redis(location.url, { ...options, lazyConnect: true });
      redis.on('error', (err) => log.error({ err }, 'redis connection error'));
      connections.push(redis);
      return redis;
    };
    // Limiter, bus publishes and the readiness probe must answer at once, never queue behind a
    // lost connection. Always needed: the bus is on Redis whenever Redis is configured, since
    // other processes' caches (API keys on PostgreSQL among them) rely on its notices.
    const commands = connection({ enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    // BullMQ needs commands that wait out a reconnect (maxRetriesPerRequest: null); its
    // connection is opened only when BullMQ is built, not when the caller brings a queue.
    const queueConnection = queue ? undefined : connection({ maxRetriesPerRequest: null });
    await Promise.all(connections.map((redis) => redis.connect()));
    closers.push(async () => {
      await Promise.allSettled(connections.map((redis) => redis.quit()));
    });
    checks.push({ name: 'redis', check: async () => void (await commands.ping()) });
    if (queueConnection) {
      const { BullMqQueue } = await import('./queue/bullmq-queue.js');
      const bull = new BullMqQueue(db, clock, log, { connection: queueConnection, prefix: location.prefix });
      closers.push(addQueueDepthSource(() => bull.depths()));
      queue = bull;
    }
    limiterFactory ??= (points, duration, keyPrefix) =>
      new RateLimiterRedis({ storeClient: commands, points, duration, keyPrefix: `${location.prefix}:${keyPrefix}` });
    // A subscriber connection can run no other command, so the bus has one of its own; it
    // publishes on the commands connection, which fails at once rather than queue while Redis is away.
    const subscriber = new Redis(location.url, { lazyConnect: true });
    subscriber.on('error', (err) => log.error({ err }, 'redis connection error'));
    const redisBus = await RedisInvalidationBus.open({ publisher: commands, subscriber, prefix: location.prefix, log });
    // Closed before the connections above (closers run in reverse).
    closers.push(() => redisBus.close());
    bus = redisBus;
  }
  bus ??= new LocalInvalidationBus();
  if (!queue) {
    const table = new TableQueue(db, clock, log);
    queue = table;
    closers.push(addQueueDepthSource(() => tableQueueDepths(db, clock)));
  }

  let blobs = choice.blobs;
  if (!blobs && config.blobUrl) {
    const { S3BlobStore } = await import('./blobs/s3-blob-store.js');
    const s3 = S3BlobStore.fromUrl(config.blobUrl);
    checks.push({ name: 'blobs', check: () => s3.check() });
    closers.push(() => s3.close());
    blobs = s3;
  }
  if (!blobs) {
    const root = join(config.dataDir, 'blobs');
    blobs = new LocalBlobStore(root);
    checks.push({ name: 'blobs', check: () => access(config.dataDir, constants.W_OK) });
  }

  return {
    db,
    queue,
    blobs,
    limiterFactory: limiterFactory ?? memoryLimiterFactory,
    bus,
    checks,
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}

/** Queue depths of the embedded queue: rows by state (waiting and due, waiting later, active). */
async function tableQueueDepths(db: Db, clock: Clock): Promise<Record<string, { waiting: number; active: number; delayed: number }>> {
  const nowIso = clock.now().toISOString();
  const rows = await liveJobCounts(db, nowIso);
  const out: Record<string, { waiting: number; active: number; delayed: number }> = {};
  for (const r of rows) {
    const d = (out[r.queue] ??= { waiting: 0, active: 0, delayed: 0 });
    if (r.state === 'active') d.active += Number(r.n);
    else {
      d.delayed += Number(r.later);
      d.waiting += Number(r.n) - Number(r.later);
    }
  }
  return out;
}
