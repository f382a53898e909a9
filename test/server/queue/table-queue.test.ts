import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { PermanentFailure, RetryLater } from '../../../server/queue/queue.js';
import { TableQueue } from '../../../server/queue/table-queue.js';
import type { Db } from '../../../server/store/database.js';
import { openScratchSqlite, type ScratchSqlite } from '../../helpers/scratch-sqlite.js';

const silent = { error: () => {}, warn: () => {} };
let scratch: ScratchSqlite;
let db: Db;
let clock: ManualClock;

beforeEach(async () => {
  scratch = await openScratchSqlite('queue');
  db = scratch.db;
  clock = new ManualClock('2026-01-01T00:00:00Z');
});
afterEach(() => scratch.close());

async function jobs() {
  return db.selectFrom('jobs').selectAll().execute();
}

describe('TableQueue', () => {
  it('runs every enqueued job once and removes it when done', async () => {
    const queue = new TableQueue(db, clock, silent, 10);
    const seen: number[] = [];
    queue.process<{ n: number }>(
      'work',
      async ({ n }) => {
        seen.push(n);
      },
      { concurrency: 3 },
    );
    await queue.start();
    for (let n = 0; n < 20; n++) await queue.enqueue('work', { n });
    await queue.whenIdle();
    await queue.stop();
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
    expect(await jobs()).toEqual([]);
  });

  it('keeps a job written inside a rolled-back transaction out of the queue', async () => {
    const queue = new TableQueue(db, clock, silent, 10);
    await db
      .transaction()
      .execute(async (trx) => {
        await queue.enqueue('work', { n: 1 }, {}, trx);
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await jobs()).toEqual([]);
  });

  it('retries a failing job with backoff on the clock, then marks it failed after max attempts', async () => {
    const queue = new TableQueue(db, clock, silent, 10);
    let runs = 0;
    queue.process(
      'flaky',
      async () => {
        runs++;
        throw new Error('receiver down');
      },
      { backoffMs: (attempt) => attempt * 60_000 },
    );
    await queue.start();
    await queue.enqueue('flaky', {}, { maxAttempts: 3 });
    await queue.whenIdle();
    expect(runs).toBe(1);
    const [afterFirst] = await jobs();
    expect(afterFirst).toMatchObject({ state: 'waiting', attempts: 1, run_at: '2026-01-01T00:01:00.000Z' });
    expect(afterFirst!.last_error).toContain('receiver down');

    clock.advance(59_000);
    await queue.whenIdle();
    expect(runs).toBe(1);
    clock.advance(1_000);
    await queue.whenIdle();
    expect(runs).toBe(2);
    clock.advance(120_000);
    await queue.whenIdle();
    expect(runs).toBe(3);
    const [failed] = await jobs();
    expect(failed).toMatchObject({ state: 'failed', attempts: 3 });
    await queue.stop();
  });

  it('honours RetryLater and fails at once on PermanentFailure', async () => {
    const queue = new TableQueue(db, clock, silent, 10);
    queue.process('later', async () => {
      throw new RetryLater(42_000);
    });
    queue.process('never', async () => {
      throw new PermanentFailure('gone');
    });
    await queue.start();
    await queue.enqueue('later', {});
    await queue.enqueue('never', {}, { maxAttempts: 9 });
    await queue.whenIdle();
    const rows = await jobs();
    expect(rows.find((j) => j.queue === 'later')).toMatchObject({ state: 'waiting', run_at: '2026-01-01T00:00:42.000Z' });
    expect(rows.find((j) => j.queue === 'never')).toMatchObject({ state: 'failed', attempts: 1 });
    await queue.stop();
  });

  it('does not run a delayed job before its time', async () => {
    const queue = new TableQueue(db, clock, silent, 10);
    let ran = false;
    queue.process('delayed', async () => {
      ran = true;
    });
    await queue.start();
    await queue.enqueue('delayed', {}, { delayMs: 5_000 });
    await queue.whenIdle();
    expect(ran).toBe(false);
    clock.advance(5_000);
    await queue.whenIdle();
    expect(ran).toBe(true);
    await queue.stop();
  });

  it('survives a crash: jobs left active are taken again after restart, none is lost', async () => {
    // A first process claims jobs and "dies" mid-work (its handler never finishes).
    const crashed = new TableQueue(db, clock, silent, 10);
    crashed.process('work', () => new Promise<void>(() => {}), { concurrency: 5 });
    for (let n = 0; n < 8; n++) await crashed.enqueue('work', { n });
    await crashed.start();
    await new Promise((r) => setTimeout(r, 100));
    expect((await jobs()).filter((j) => j.state === 'active')).toHaveLength(5);
    void crashed.stop();

    const restarted = new TableQueue(db, clock, silent, 10);
    const seen = new Set<number>();
    restarted.process<{ n: number }>(
      'work',
      async ({ n }) => {
        seen.add(n);
      },
      { concurrency: 5 },
    );
    expect(await restarted.recoverAbandoned()).toBe(5);
    await restarted.start();
    await restarted.whenIdle();
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await jobs()).toEqual([]);
    await restarted.stop();
  });

  it('takes over a job whose lease ran out (a worker that died elsewhere)', async () => {
    const stuck = new TableQueue(db, clock, silent, 10);
    stuck.process('work', () => new Promise<void>(() => {}), { leaseMs: 30_000 });
    await stuck.enqueue('work', { n: 1 });
    await stuck.start();
    await new Promise((r) => setTimeout(r, 50));
    void stuck.stop();

    const other = new TableQueue(db, clock, silent, 10);
    let runs = 0;
    other.process(
      'work',
      async () => {
        runs++;
      },
      { leaseMs: 30_000 },
    );
    await other.start();
    await other.whenIdle();
    expect(runs).toBe(0);
    clock.advance(30_000);
    await other.whenIdle();
    expect(runs).toBe(1);
    await other.stop();
  });
});
