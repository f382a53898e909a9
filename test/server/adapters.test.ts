import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis, RedisOptions } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAdapters, type Adapters } from '../../server/adapters.js';
import { RedisInvalidationBus } from '../../server/cache/invalidation-bus.js';
import { systemClock } from '../../server/clock.js';
import { loadConfig, type Config } from '../../server/config.js';
import { memoryLimiterFactory } from '../../server/http/limiter-factory.js';
import { BullMqQueue } from '../../server/queue/bullmq-queue.js';
import { TableQueue } from '../../server/queue/table-queue.js';
import { openDatabase } from '../../server/store/database.js';
import { dropRedisPrefix, scratchRedisUrl } from '../helpers/postgres.js';
import { TEST_REDIS_URL } from '../helpers/scale-env.js';

/** Every ioredis connection Verity's code creates in this file, with the options it was given. */
const created = vi.hoisted(() => [] as { options: RedisOptions; redis: Redis }[]);
vi.mock('ioredis', async (importOriginal) => {
  const ioredis = await importOriginal<typeof import('ioredis')>();
  class RecordedRedis extends ioredis.Redis {
    // Verity passes a URL and options; ioredis's default (legacy) reply mapping, as Verity uses it.
    constructor(url: string, options: RedisOptions & { replyMapping?: 'legacy' }) {
      super(url, options);
      created.push({ options, redis: this });
    }
  }
  return { ...ioredis, Redis: RecordedRedis, default: RecordedRedis };
});

/** The scale-out libraries the embedded server must never load (they cost start-up time and memory). */
const SCALE_OUT_PACKAGES = /\/node_modules\/(bullmq|ioredis|pg|@aws-sdk\/[^/]+)\//;

describe('openAdapters, embedded', () => {
  it('`verity serve` on SQLite, the table queue and local blobs never loads bullmq, ioredis, pg or the AWS SDK', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'verity-adapters-'));
    try {
      const moduleLog = join(dir, 'modules.log');
      // The caller's own scale-out variables must not leak into the embedded server.
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^VERITY_(DATABASE|REDIS|BLOB)_URL$/.test(name)));
      const child = spawn(process.execPath, ['--import', './test/helpers/module-log.mjs', 'bin/verity.mjs', 'serve'], {
        env: {
          ...env,
          PORT: '0',
          HOST: '127.0.0.1',
          VERITY_DATA_DIR: join(dir, 'data'),
          VERITY_SECRET: 'adapters-test-secret-'.padEnd(48, 'x'),
          VERITY_LOG_LEVEL: 'warn',
          VERITY_TEST_MODULE_LOG: moduleLog,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const read = (d: Buffer) => {
          output += d.toString();
          if (output.includes('listening on')) resolve();
        };
        child.stdout.on('data', read);
        child.stderr.on('data', read);
        void exited.then((code) => reject(new Error(`verity serve exited ${code}: ${output}`)));
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);

      const loaded = (await readFile(moduleLog, 'utf8')).split('\n').filter(Boolean);
      // The log saw the server's own modules and its ordinary dependencies, ESM and CommonJS.
      expect(loaded.some((url) => url.endsWith('/server/adapters.ts'))).toBe(true);
      expect(loaded.some((url) => url.includes('/node_modules/fastify/'))).toBe(true);
      expect(loaded.some((url) => url.includes('/node_modules/better-sqlite3/'))).toBe(true);
      const scaleOut = new Set(loaded.map((url) => SCALE_OUT_PACKAGES.exec(url)?.[1]).filter((name) => name !== undefined));
      expect([...scaleOut]).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('openAdapters, Redis', () => {
  const silent = { error: () => {}, warn: () => {} };
  let dataDir: string | undefined;
  let config: Config | undefined;
  let adapters: Adapters | undefined;

  afterEach(async () => {
    await adapters?.close();
    await adapters?.db.destroy();
    if (config?.redisUrl) await dropRedisPrefix(config.redisUrl);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    created.length = 0;
    adapters = undefined;
    config = undefined;
    dataDir = undefined;
  });

  /** Resolves once every connection has ended (QUIT ends it when Redis closes the socket); hangs if one stays open. */
  async function everyConnectionEnded(): Promise<void> {
    await Promise.all(created.map(({ redis }) => (redis.status === 'end' ? undefined : once(redis, 'end'))));
  }

  /** A configuration on SQLite with a Redis prefix of its own. */
  async function redisConfig(): Promise<Config> {
    dataDir = await mkdtemp(join(tmpdir(), 'verity-adapters-'));
    config = loadConfig({
      VERITY_DATA_DIR: dataDir,
      VERITY_SECRET: 'adapters-test-secret-'.padEnd(48, 'x'),
      VERITY_REDIS_URL: scratchRedisUrl(TEST_REDIS_URL, 'adapters'),
    });
    return config;
  }

  it('with nothing handed in, builds BullMQ, the Redis limiter and the Redis bus, and close() ends every connection', async () => {
    adapters = await openAdapters({ config: await redisConfig(), clock: systemClock, log: silent });

    expect(adapters.queue).toBeInstanceOf(BullMqQueue);
    expect(adapters.limiterFactory).not.toBe(memoryLimiterFactory);
    expect(adapters.bus).toBeInstanceOf(RedisInvalidationBus);
    expect(adapters.checks.map((c) => c.name)).toContain('redis');
    // Commands (limiter, bus publishes, probe), BullMQ's (waits out reconnects), the bus subscriber.
    expect(created).toHaveLength(3);
    expect(created.filter((c) => c.options.maxRetriesPerRequest === null)).toHaveLength(1);
    await adapters.queue.stop();
    await adapters.close();
    await everyConnectionEnded();
  });

  it("with the caller's queue and limiter, opens no connection for BullMQ, and the bus stays on Redis", async () => {
    const cfg = await redisConfig();
    const db = await openDatabase({ dataDir: cfg.dataDir });
    const queue = new TableQueue(db, systemClock, silent);
    adapters = await openAdapters({ config: cfg, clock: systemClock, log: silent, db, queue, limiterFactory: memoryLimiterFactory });

    expect(adapters.queue).toBe(queue);
    expect(adapters.limiterFactory).toBe(memoryLimiterFactory);
    // Other processes' caches still hear of this one's changes through Redis.
    expect(adapters.bus).toBeInstanceOf(RedisInvalidationBus);
    expect(adapters.checks.map((c) => c.name)).toContain('redis');
    expect(created).toHaveLength(2);
    expect(created.filter((c) => c.options.maxRetriesPerRequest === null)).toEqual([]);
    await adapters.close();
    await everyConnectionEnded();
  });
});
