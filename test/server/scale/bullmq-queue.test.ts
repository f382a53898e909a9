import { Queue as BullQueue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRedisUrl } from '../../../server/adapters.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { BullMqQueue } from '../../../server/queue/bullmq-queue.js';
import { PermanentFailure, RetryLater, type JobContext } from '../../../server/queue/queue.js';
import { TableQueue } from '../../../server/queue/table-queue.js';
import { migrateToLatest, openDatabase, type Db } from '../../../server/store/database.js';
import { acquireDatabase, dropRedisPrefix, releaseDatabase, scratchRedisUrl, type ScratchDatabase } from '../../helpers/postgres.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../helpers/scale-env.js';

const silent = { error: () => {}, warn: () => {} };
let database: ScratchDatabase;
let db: Db;
let redisUrl: string;
let redis: Redis;
let clock: ManualClock;
const queues: BullMqQueue[] = [];

beforeEach(async () => {
  database = await acquireDatabase(TEST_DATABASE_URL);
  db = await openDatabase({ dataDir: '/nonexistent', databaseUrl: database.url });
  await migrateToLatest(db);
  redisUrl = scratchRedisUrl(TEST_REDIS_URL, 'queue');
  redis = new Redis(parseRedisUrl(redisUrl).url, { maxRetriesPerRequest: null });
  clock = new ManualClock('2026-01-01T00:00:00Z');
});
afterEach(async () => {
  for (const q of queues.splice(0)) await q.stop();
  redis.disconnect();
  await db.destroy();
  await releaseDatabase(database);
  await dropRedisPrefix(redisUrl);
});

function makeQueue(): BullMqQueue {
  const q = new BullMqQueue(db, clock, silent, { connection: redis, prefix: parseRedisUrl(redisUrl).prefix, relayPollMs: 20, lockMs: 2_000 });
  queues.push(q);
  return q;
}

async function rows() {
  return db.selectFrom('jobs').selectAll().orderBy('id').execute();
}

describe('BullMqQueue (PostgreSQL + Redis)', () => {
  it('runs jobs given with and without a transaction once each, and leaves no rows behind', async () => {
    const queue = makeQueue();
    const seen: number[] = [];
    queue.process<{ n: number }>(
      'work',
      async ({ n }) => {
        seen.push(n);
      },
      { concurrency: 4 },
    );
    await queue.start();
    for (let n = 0; n < 10; n++) await queue.enqueue('work', { n });
    await db.transaction().execute(async (trx) => {
      for (let n = 10; n < 20; n++) await queue.enqueue('work', { n }, {}, trx);
    });
    await queue.whenIdle();
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
    expect(await rows()).toEqual([]);
  });

  it('loses no job and invents none around a transaction: rolled back means no job; committed means one, even before a relay runs', async () => {
    const queue = makeQueue();
    await db
      .transaction()
      .execute(async (trx) => {
        await queue.enqueue('work', { n: 1 }, {}, trx);
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await rows()).toEqual([]);
    // Committed while no worker runs (say the process died right after commit): it waits as a row.
    await db.transaction().execute((trx) => queue.enqueue('work', { n: 2 }, { maxAttempts: 3 }, trx));
    expect(await rows()).toMatchObject([{ queue: 'work', state: 'waiting', attempts: 0, max_attempts: 3 }]);
    // A later process relays and runs it.
    const later = makeQueue();
    const seen: unknown[] = [];
    later.process('work', async (p, c) => void seen.push([p, c.attempt, c.maxAttempts]));
    await later.start();
    await later.whenIdle();
    expect(seen).toEqual([[{ n: 2 }, 1, 3]]);
    expect(await rows()).toEqual([]);
  });

  it('adds nothing twice when a relay died between Redis and deleting the row', async () => {
    const queue = makeQueue();
    await db.transaction().execute((trx) => queue.enqueue('work', { n: 7 }, {}, trx));
    const [row] = await rows();
    // What the dead relay had already done: the job is in BullMQ under the row's id.
    const bull = new BullQueue('work', { connection: redis, prefix: parseRedisUrl(redisUrl).prefix });
    await bull.add('work', { payload: row!.payload, attempt: 1, maxAttempts: row!.max_attempts }, { jobId: `job-${row!.id}-1` });
    await bull.close();
    let runs = 0;
    queue.process('work', async () => void runs++);
    await queue.start();
    await queue.whenIdle();
    expect(runs).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it('retries on the application clock with the queue backoff, honours RetryLater, then fails for good after max attempts', async () => {
    const queue = makeQueue();
    const attempts: JobContext[] = [];
    queue.process(
      'flaky',
      async (_p, c) => {
        attempts.push(c);
        if (c.attempt === 1) throw new RetryLater(60_000, 'busy');
        throw new Error('still broken');
      },
      { backoffMs: (n) => n * 1_000 },
    );
    await queue.start();
    await queue.enqueue('flaky', { x: 1 }, { maxAttempts: 3 });
    await queue.whenIdle();
    expect(attempts.map((a) => a.attempt)).toEqual([1]);
    expect(await rows()).toMatchObject([{ state: 'waiting', attempts: 1, last_error: 'RetryLater: busy', run_at: '2026-01-01T00:01:00.000Z' }]);
    clock.advance(59_999);
    await queue.whenIdle();
    expect(attempts).toHaveLength(1);
    clock.advance(1);
    await queue.whenIdle();
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
    // Backoff for retry after run 2: 2 × 1000 ms.
    expect(await rows()).toMatchObject([{ state: 'waiting', attempts: 2, run_at: '2026-01-01T00:01:02.000Z' }]);
    clock.advance(2_000);
    await queue.whenIdle();
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(await rows()).toMatchObject([{ state: 'failed', attempts: 3, max_attempts: 3, last_error: 'Error: still broken' }]);
    clock.advance(3_600_000);
    await queue.whenIdle();
    expect(attempts).toHaveLength(3);
  });

  it('fails at once on PermanentFailure and honours a delay on enqueue', async () => {
    const queue = makeQueue();
    let runs = 0;
    queue.process('never', async () => {
      runs++;
      throw new PermanentFailure('no such user');
    });
    await queue.start();
    await queue.enqueue('never', {}, { maxAttempts: 9, delayMs: 5_000 });
    await queue.whenIdle();
    expect(runs).toBe(0);
    clock.advance(5_000);
    await queue.whenIdle();
    expect(runs).toBe(1);
    expect(await rows()).toMatchObject([{ state: 'failed', attempts: 1, last_error: 'PermanentFailure: no such user' }]);
  });

  it('shares work between two processes: 300 jobs, each run exactly once', async () => {
    const a = makeQueue();
    const b = makeQueue();
    const runs = new Map<number, number>();
    const by = { a: 0, b: 0 };
    for (const [name, q] of [
      ['a', a],
      ['b', b],
    ] as const) {
      q.process<{ n: number }>(
        'work',
        async ({ n }) => {
          runs.set(n, (runs.get(n) ?? 0) + 1);
          by[name]++;
          await new Promise((r) => setTimeout(r, 2));
        },
        { concurrency: 8 },
      );
    }
    await Promise.all([a.start(), b.start()]);
    await db.transaction().execute(async (trx) => {
      for (let n = 0; n < 150; n++) await a.enqueue('work', { n }, {}, trx);
    });
    for (let n = 150; n < 300; n++) await b.enqueue('work', { n });
    await Promise.all([a.whenIdle(), b.whenIdle()]);
    expect(runs.size).toBe(300);
    expect([...runs.values()].every((c) => c === 1)).toBe(true);
    expect(by.a).toBeGreaterThan(0);
    expect(by.b).toBeGreaterThan(0);
  });

  it('graceful stop finishes the job in hand and takes no new one', async () => {
    const queue = makeQueue();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const done: number[] = [];
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    queue.process<{ n: number }>(
      'slow',
      async ({ n }) => {
        started();
        await gate;
        done.push(n);
      },
      { concurrency: 1 },
    );
    await queue.start();
    await queue.enqueue('slow', { n: 1 });
    await queue.enqueue('slow', { n: 2 });
    await running;
    const stopping = queue.stop();
    release();
    await stopping;
    expect(done).toEqual([1]);
    // The second job is still queued for whoever starts next.
    const next = makeQueue();
    next.process<{ n: number }>('slow', async ({ n }) => void done.push(n));
    await next.start();
    await next.whenIdle();
    expect(done).toEqual([1, 2]);
  });
});

describe('TableQueue on PostgreSQL', () => {
  it('two claimers never take the same job (FOR UPDATE SKIP LOCKED)', async () => {
    const runs = new Map<number, number>();
    const make = () => {
      const q = new TableQueue(db, clock, silent, 5);
      q.process<{ n: number }>(
        'work',
        async ({ n }) => {
          runs.set(n, (runs.get(n) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 1));
        },
        { concurrency: 6 },
      );
      return q;
    };
    const a = make();
    const b = make();
    await db.transaction().execute(async (trx) => {
      for (let n = 0; n < 200; n++) await a.enqueue('work', { n }, {}, trx);
    });
    await Promise.all([a.start(), b.start()]);
    await Promise.all([a.whenIdle(), b.whenIdle()]);
    await Promise.all([a.stop(), b.stop()]);
    expect(runs.size).toBe(200);
    expect([...runs.entries()].filter(([, c]) => c !== 1)).toEqual([]);
  });
});
