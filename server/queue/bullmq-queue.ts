import { Queue as BullQueue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import { recordJob } from '../metrics/metrics.js';
import { isPostgres } from '../store/migrations/helpers.js';
import type { Db, Executor } from '../store/database.js';
import type { JobRow } from '../store/schema.js';
import { exponentialBackoff, PermanentFailure, RetryLater, type EnqueueOptions, type JobHandler, type ProcessOptions, type Queue } from './queue.js';
import type { Logger } from './table-queue.js';

/** What a BullMQ job carries: one attempt of one Verity job. */
interface BullJobData {
  payload: string;
  /** 1-based number of this run. */
  attempt: number;
  maxAttempts: number;
}

interface Registered {
  handler: JobHandler<unknown>;
  concurrency: number;
  backoffMs: (attempt: number) => number;
  worker: Worker<BullJobData> | undefined;
}

export interface BullMqQueueOptions {
  /** A connection for commands (adding jobs, counts); workers open their own blocking ones from it. */
  connection: Redis;
  /** Key prefix of every BullMQ key (one per deployment sharing a Redis). */
  prefix: string;
  /** How often the relay looks for committed rows when nothing pokes it. */
  relayPollMs?: number;
  /**
   * How long a worker's hold on a job lasts without renewal (renewed every half of it while the
   * job runs). A worker that dies releases its jobs this long after (plus the stalled check).
   */
  lockMs?: number;
}

const RELAY_BATCH = 200;

/**
 * The scale-out queue: BullMQ on Redis runs the jobs (one BullMQ job per attempt, spread over all
 * worker processes, held under a renewed lock; a worker that dies has its jobs taken back by the
 * others' stalled-job check).
 *
 * Timing and atomicity stay in the database, as with TableQueue:
 * - `enqueue` inside a transaction writes a row to the `jobs` table (a transactional job outbox):
 *   if the transaction rolls back, there is no job; once it commits, the relay moves the row to
 *   BullMQ and deletes it. The move uses the row id as the BullMQ job id, so a relay that dies
 *   between adding to Redis and deleting the row adds nothing twice when the row is moved again.
 * - Delays, retries (the queue's backoff, RetryLater) are rows with a future `run_at` on the
 *   application clock, moved when due; jobs that fail for good stay as `failed` rows, exactly like
 *   TableQueue, so the job history is in one place whatever the adapter.
 * - Without a transaction and without delay, the job goes straight to BullMQ.
 */
export class BullMqQueue implements Queue {
  readonly #queues = new Map<string, Registered>();
  readonly #producers = new Map<string, BullQueue<BullJobData>>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #pollMs: number;
  readonly #lockMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #relaying: Promise<void> | undefined;
  #again = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: BullMqQueueOptions,
  ) {
    this.#pollMs = options.relayPollMs ?? 250;
    this.#lockMs = options.lockMs ?? 15_000;
  }

  #producer(queue: string): BullQueue<BullJobData> {
    let producer = this.#producers.get(queue);
    if (!producer) {
      producer = new BullQueue<BullJobData>(queue, {
        connection: this.options.connection,
        prefix: this.options.prefix,
        defaultJobOptions: {
          // One BullMQ job is one attempt; these retries only cover the database being unreachable
          // when the outcome is recorded (the handler runs again: at least once).
          attempts: 8,
          backoff: { type: 'exponential', delay: 1_000 },
          // Completed jobs are kept an hour so a row moved twice is recognised by its job id.
          removeOnComplete: { age: 3_600, count: 100_000 },
          removeOnFail: { age: 7 * 24 * 3_600 },
        },
      });
      this.#producers.set(queue, producer);
    }
    return producer;
  }

  async enqueue(queue: string, payload: unknown, options: EnqueueOptions = {}, executor?: Executor): Promise<void> {
    const maxAttempts = options.maxAttempts ?? 5;
    const delayMs = options.delayMs ?? 0;
    if (executor === undefined && delayMs <= 0) {
      await this.#producer(queue).add(queue, { payload: JSON.stringify(payload), attempt: 1, maxAttempts });
      return;
    }
    await this.#writeRow(executor ?? this.db, {
      queue,
      payload: JSON.stringify(payload),
      attempts: 0,
      maxAttempts,
      runAt: new Date(this.clock.now().getTime() + delayMs),
      state: 'waiting',
      lastError: null,
    });
    // A row written inside a transaction is visible after commit; relay on the next tick.
    if (this.#running) setImmediate(() => this.poke());
  }

  async #writeRow(
    ex: Executor,
    row: { queue: string; payload: string; attempts: number; maxAttempts: number; runAt: Date; state: 'waiting' | 'failed'; lastError: string | null },
  ): Promise<void> {
    const now = this.clock.now().toISOString();
    await ex
      .insertInto('jobs')
      .values({
        queue: row.queue,
        payload: row.payload,
        state: row.state,
        attempts: row.attempts,
        max_attempts: row.maxAttempts,
        run_at: row.runAt.toISOString(),
        locked_until: null,
        last_error: row.lastError,
        created_at: now,
        finished_at: row.state === 'failed' ? now : null,
      })
      .execute();
  }

  process<P>(queue: string, handler: JobHandler<P>, options: ProcessOptions = {}): void {
    const registered: Registered = {
      handler: handler as JobHandler<unknown>,
      concurrency: options.concurrency ?? 4,
      backoffMs: options.backoffMs ?? exponentialBackoff,
      worker: undefined,
    };
    this.#queues.set(queue, registered);
    if (this.#running) this.#startWorker(queue, registered);
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    for (const [name, q] of this.#queues) this.#startWorker(name, q);
    this.#schedule();
    this.poke();
  }

  #startWorker(name: string, q: Registered): void {
    const worker = new Worker<BullJobData>(name, (job) => this.#runJob(name, q, job), {
      connection: this.options.connection,
      prefix: this.options.prefix,
      concurrency: q.concurrency,
      lockDuration: this.#lockMs,
      stalledInterval: this.#lockMs,
      // A job whose workers keep dying is given up after this many takeovers (then recorded as failed).
      maxStalledCount: 5,
    });
    worker.on('error', (error) => this.log.error({ err: error, queue: name }, 'queue worker error'));
    worker.on('failed', (job, error) => {
      // Only reached when BullMQ itself gives up (recording failed again and again, or stalled
      // too often): keep the job as a failed row so it is not lost from sight.
      if (!job || (job.attemptsMade < (job.opts.attempts ?? 1) && !/stalled/i.test(error.message))) return;
      void this.#writeRow(this.db, {
        queue: name,
        payload: job.data.payload,
        attempts: job.data.attempt,
        maxAttempts: job.data.maxAttempts,
        runAt: this.clock.now(),
        state: 'failed',
        lastError: `${error.name}: ${error.message}`,
      }).catch((dbError: unknown) => this.log.error({ err: dbError, queue: name, jobId: job.id }, 'could not record job failure'));
    });
    q.worker = worker;
  }

  async #runJob(name: string, q: Registered, job: Job<BullJobData>): Promise<void> {
    const started = performance.now();
    const { attempt, maxAttempts, payload } = job.data;
    const task = (async () => {
      try {
        await q.handler(JSON.parse(payload) as unknown, { id: String(job.id), queue: name, attempt, maxAttempts });
        recordJob(name, 'completed', (performance.now() - started) / 1000);
      } catch (error: unknown) {
        await this.#fail(name, q, job.data, error, started);
      }
    })();
    this.#inFlight.add(task);
    try {
      await task;
    } finally {
      this.#inFlight.delete(task);
    }
  }

  /** The handler failed: a retry row on the application clock, or a failed row. Throws if neither could be written. */
  async #fail(name: string, q: Registered, data: BullJobData, error: unknown, started: number): Promise<void> {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const permanent = error instanceof PermanentFailure || data.attempt >= data.maxAttempts;
    const delay = error instanceof RetryLater ? error.delayMs : q.backoffMs(data.attempt);
    await this.#writeRow(this.db, {
      queue: name,
      payload: data.payload,
      attempts: data.attempt,
      maxAttempts: data.maxAttempts,
      runAt: new Date(this.clock.now().getTime() + (permanent ? 0 : delay)),
      state: permanent ? 'failed' : 'waiting',
      lastError: message,
    });
    recordJob(name, permanent ? 'failed' : 'retry', (performance.now() - started) / 1000);
    if (permanent) this.log.warn({ queue: name, attempts: data.attempt }, 'job failed for good');
  }

  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    // Close the workers first, synchronously: from here on none fetches a new job; close()
    // resolves once the jobs in hand have finished (graceful).
    const closing = [...this.#queues.values()].map(async (q) => {
      const worker = q.worker;
      q.worker = undefined;
      await worker?.close();
    });
    await this.#relaying;
    await Promise.allSettled(closing);
    await Promise.allSettled([...this.#producers.values()].map((p) => p.close()));
    this.#producers.clear();
  }

  poke(): void {
    if (!this.#running) return;
    if (this.#relaying) {
      this.#again = true;
      return;
    }
    this.#relaying = this.#relayAll()
      .catch((error: unknown) => this.log.error({ err: error }, 'job relay failed'))
      .finally(() => {
        this.#relaying = undefined;
        if (this.#again) {
          this.#again = false;
          this.poke();
        }
      });
  }

  #schedule(): void {
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      this.poke();
      this.#schedule();
    }, this.#pollMs);
    this.#timer.unref();
  }

  async #relayAll(): Promise<void> {
    while (this.#running && (await this.#relayBatch()) === RELAY_BATCH) {
      // A full batch: there may be more.
    }
  }

  /**
   * Moves due, committed rows of the queues this process works on to BullMQ, then deletes them,
   * in one transaction. On PostgreSQL the rows are locked with SKIP LOCKED, so relays in several
   * worker processes share the rows instead of moving the same ones.
   */
  async #relayBatch(): Promise<number> {
    const names = [...this.#queues.keys()];
    if (names.length === 0) return 0;
    const nowIso = this.clock.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('jobs')
        .selectAll()
        .where('queue', 'in', names)
        .where('state', '=', 'waiting')
        .where('run_at', '<=', nowIso)
        .orderBy('run_at')
        .limit(RELAY_BATCH);
      if (isPostgres(this.db)) query = query.forUpdate().skipLocked();
      const rows: JobRow[] = await query.execute();
      if (rows.length === 0) return 0;
      const byQueue = new Map<string, JobRow[]>();
      for (const row of rows) byQueue.set(row.queue, [...(byQueue.get(row.queue) ?? []), row]);
      for (const [queue, list] of byQueue) {
        await this.#producer(queue).addBulk(
          list.map((row) => ({
            name: queue,
            data: { payload: row.payload, attempt: row.attempts + 1, maxAttempts: row.max_attempts },
            opts: { jobId: `job-${row.id}-${row.attempts + 1}` },
          })),
        );
      }
      await trx
        .deleteFrom('jobs')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      return rows.length;
    });
  }

  /** Jobs per queue and state, BullMQ's states plus rows waiting in the database. */
  async depths(): Promise<Record<string, { waiting: number; active: number; delayed: number }>> {
    const names = new Set([...this.#queues.keys(), ...this.#producers.keys()]);
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => ['queue', eb.fn.countAll<number | string>().as('n')])
      .where('state', '=', 'waiting')
      .where('run_at', '>', this.clock.now().toISOString())
      .groupBy('queue')
      .execute();
    const due = await this.db
      .selectFrom('jobs')
      .select((eb) => ['queue', eb.fn.countAll<number | string>().as('n')])
      .where('state', '=', 'waiting')
      .where('run_at', '<=', this.clock.now().toISOString())
      .groupBy('queue')
      .execute();
    const out: Record<string, { waiting: number; active: number; delayed: number }> = {};
    for (const name of names) {
      const c = await this.#producer(name).getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      out[name] = { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0, delayed: c.delayed ?? 0 };
    }
    for (const r of rows) {
      const d = (out[r.queue] ??= { waiting: 0, active: 0, delayed: 0 });
      d.delayed += Number(r.n);
    }
    for (const r of due) {
      const d = (out[r.queue] ??= { waiting: 0, active: 0, delayed: 0 });
      d.waiting += Number(r.n);
    }
    return out;
  }

  async whenIdle(): Promise<void> {
    for (;;) {
      this.poke();
      while (this.#relaying) await this.#relaying;
      if (await this.#idle()) return;
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  async #idle(): Promise<boolean> {
    if (this.#inFlight.size > 0) return false;
    const names = [...this.#queues.keys()];
    if (names.length === 0) return true;
    const due = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('queue', 'in', names)
      .where('state', '=', 'waiting')
      .where('run_at', '<=', this.clock.now().toISOString())
      .limit(1)
      .executeTakeFirst();
    if (due) return false;
    for (const name of names) {
      const c = await this.#producer(name).getJobCounts('waiting', 'active', 'prioritized');
      if ((c.waiting ?? 0) + (c.active ?? 0) + (c.prioritized ?? 0) > 0) return false;
    }
    return this.#inFlight.size === 0;
  }
}
