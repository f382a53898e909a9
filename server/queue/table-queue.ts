import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import { recordJob } from '../metrics/metrics.js';
import { isPostgres } from '../store/migrations/helpers.js';
import type { Db, Executor } from '../store/database.js';
import type { JobRow } from '../store/schema.js';
import { exponentialBackoff, PermanentFailure, RetryLater, type EnqueueOptions, type JobHandler, type ProcessOptions, type Queue } from './queue.js';

interface Registered {
  handler: JobHandler<unknown>;
  concurrency: number;
  backoffMs: (attempt: number) => number;
  leaseMs: number;
  running: number;
}

export interface Logger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The embedded queue: jobs are rows of the `jobs` table in the same database, claimed by
 * in-process workers. A claim is one UPDATE … RETURNING, so a job runs once per claim; a claim has
 * a lease, and a job whose worker died is taken again when the lease runs out.
 */
export class TableQueue implements Queue {
  readonly #queues = new Map<string, Registered>();
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #pumping = false;
  /** What the next pump claims: every queue (timer, explicit poke) or only the queues named. */
  #wantAll = false;
  readonly #wanted = new Set<string>();
  #idleWaiters: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly pollMs = 250,
  ) {}

  async enqueue(queue: string, payload: unknown, options: EnqueueOptions = {}, executor: Executor = this.db): Promise<void> {
    const now = this.clock.now();
    await executor
      .insertInto('jobs')
      .values({
        queue,
        payload: JSON.stringify(payload),
        state: 'waiting',
        attempts: 0,
        max_attempts: options.maxAttempts ?? 5,
        run_at: new Date(now.getTime() + (options.delayMs ?? 0)).toISOString(),
        locked_until: null,
        last_error: null,
        created_at: now.toISOString(),
        finished_at: null,
      })
      .execute();
    // A job written inside a transaction is only visible after commit; poke on the next tick.
    if (this.#running) setImmediate(() => this.#pokeQueue(queue));
  }

  process<P>(queue: string, handler: JobHandler<P>, options: ProcessOptions = {}): void {
    this.#queues.set(queue, {
      handler: handler as JobHandler<unknown>,
      concurrency: options.concurrency ?? 4,
      backoffMs: options.backoffMs ?? exponentialBackoff,
      leaseMs: options.leaseMs ?? 5 * 60_000,
      running: 0,
    });
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#schedule();
    this.poke();
  }

  /** Embedded mode is one process: work left `active` by a crash is ours to take back at once. */
  async recoverAbandoned(): Promise<number> {
    const result = await this.db.updateTable('jobs').set({ state: 'waiting', locked_until: null }).where('state', '=', 'active').executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await Promise.allSettled([...this.#inFlight]);
  }

  /** Claims due work of every queue, including jobs whose lease ran out. */
  poke(): void {
    this.#wantAll = true;
    this.#startPump();
  }

  /**
   * Claims due work of one queue only: after a job of it was enqueued or finished. A pump costs
   * two claim queries per queue it looks at; most pokes concern one queue of several, and leases
   * that ran out are found by the timer's full pokes (leases last minutes, the timer a fraction of a second).
   */
  #pokeQueue(queue: string): void {
    if (!this.#queues.has(queue)) return;
    this.#wanted.add(queue);
    this.#startPump();
  }

  #startPump(): void {
    if (!this.#running || this.#pumping) return;
    if (!this.#wantAll && this.#wanted.size === 0) return;
    this.#pumping = true;
    const all = this.#wantAll;
    const names = all ? [...this.#queues.keys()] : [...this.#wanted];
    this.#wantAll = false;
    this.#wanted.clear();
    void this.#pump(names, all).finally(() => {
      this.#pumping = false;
      if (this.#wantAll || this.#wanted.size > 0) this.#startPump();
      else void this.#checkIdle();
    });
  }

  whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      this.#idleWaiters.push(resolve);
      this.poke();
      void this.#checkIdle();
    });
  }

  #schedule(): void {
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      this.poke();
      this.#schedule();
    }, this.pollMs);
    this.#timer.unref();
  }

  async #pump(names: readonly string[], withExpiredLeases: boolean): Promise<void> {
    for (const name of names) {
      const q = this.#queues.get(name);
      if (!q) continue;
      const free = q.concurrency - q.running;
      if (free <= 0 || !this.#running) continue;
      let claimed: JobRow[];
      try {
        claimed = await this.#claim(name, free, q.leaseMs, withExpiredLeases);
      } catch (error: unknown) {
        this.log.error({ err: error, queue: name }, 'queue claim failed');
        continue;
      }
      for (const job of claimed) this.#run(q, job);
    }
  }

  async #claim(queue: string, limit: number, leaseMs: number, withExpiredLeases: boolean): Promise<JobRow[]> {
    const now = this.clock.now();
    const nowIso = now.toISOString();
    const lease = new Date(now.getTime() + leaseMs).toISOString();
    // Two claims, each an index range of (queue, state, …): one OR over both states made the
    // database scan and sort every job of the queue (6.5 ms a claim with 10,000 waiting).
    const taken = withExpiredLeases ? await this.#claimWhere(queue, limit, lease, 'active', 'locked_until', nowIso) : [];
    if (taken.length < limit) taken.push(...(await this.#claimWhere(queue, limit - taken.length, lease, 'waiting', 'run_at', nowIso)));
    return taken;
  }

  #claimWhere(
    queue: string,
    limit: number,
    lease: string,
    state: 'waiting' | 'active',
    dueColumn: 'run_at' | 'locked_until',
    nowIso: string,
  ): Promise<JobRow[]> {
    let due = this.db
      .selectFrom('jobs')
      .select('id')
      .where('queue', '=', queue)
      .where('state', '=', state)
      .where(dueColumn, '<=', nowIso)
      .orderBy(dueColumn)
      .limit(limit);
    // PostgreSQL: two claimers must not both take a row the other is claiming (READ COMMITTED
    // would let the second UPDATE take it once the first commits); SKIP LOCKED passes over it.
    if (isPostgres(this.db)) due = due.forUpdate().skipLocked();
    return this.db
      .updateTable('jobs')
      .set({ state: 'active', attempts: sql`attempts + 1`, locked_until: lease })
      .where('id', 'in', due)
      .returningAll()
      .execute();
  }

  #run(q: Registered, job: JobRow): void {
    q.running++;
    const started = performance.now();
    const task = (async () => {
      try {
        await q.handler(JSON.parse(job.payload) as unknown, {
          id: String(job.id),
          queue: job.queue,
          attempt: job.attempts,
          maxAttempts: job.max_attempts,
        });
        await this.db.deleteFrom('jobs').where('id', '=', job.id).execute();
        recordJob(job.queue, 'completed', (performance.now() - started) / 1000);
      } catch (error: unknown) {
        const permanent = error instanceof PermanentFailure || job.attempts >= job.max_attempts;
        recordJob(job.queue, permanent ? 'failed' : 'retry', (performance.now() - started) / 1000);
        await this.#fail(q, job, error);
      } finally {
        q.running--;
      }
    })();
    this.#inFlight.add(task);
    void task.finally(() => {
      this.#inFlight.delete(task);
      // A slot of this queue is free: only this queue can take more now.
      this.#pokeQueue(job.queue);
    });
  }

  async #fail(q: Registered, job: JobRow, error: unknown): Promise<void> {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const permanent = error instanceof PermanentFailure || job.attempts >= job.max_attempts;
    const now = this.clock.now();
    try {
      if (permanent) {
        await this.db
          .updateTable('jobs')
          .set({ state: 'failed', locked_until: null, last_error: message, finished_at: now.toISOString() })
          .where('id', '=', job.id)
          .execute();
        this.log.warn({ queue: job.queue, jobId: job.id, attempts: job.attempts }, 'job failed for good');
      } else {
        const delay = error instanceof RetryLater ? error.delayMs : q.backoffMs(job.attempts);
        await this.db
          .updateTable('jobs')
          .set({
            state: 'waiting',
            locked_until: null,
            last_error: message,
            run_at: new Date(now.getTime() + delay).toISOString(),
          })
          .where('id', '=', job.id)
          .execute();
      }
    } catch (dbError: unknown) {
      // The lease will expire and the job will be taken again: nothing is lost.
      this.log.error({ err: dbError, queue: job.queue, jobId: job.id }, 'could not record job failure');
    }
  }

  async #checkIdle(): Promise<void> {
    if (this.#idleWaiters.length === 0 || this.#pumping || this.#inFlight.size > 0) return;
    const names = [...this.#queues.keys()];
    if (names.length > 0) {
      const nowIso = this.clock.now().toISOString();
      const pending = await this.db
        .selectFrom('jobs')
        .select('id')
        .where('queue', 'in', names)
        .where((eb) =>
          eb.or([eb.and([eb('state', '=', 'waiting'), eb('run_at', '<=', nowIso)]), eb.and([eb('state', '=', 'active'), eb('locked_until', '<=', nowIso)])]),
        )
        .limit(1)
        .executeTakeFirst();
      if (pending) {
        this.poke();
        return;
      }
    }
    if (this.#inFlight.size > 0 || this.#pumping) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }
}

/**
 * Deletes the waiting jobs about a user who is being deleted (jobs whose payload names the user as
 * `userId`: analysis and notify jobs), in the deleting transaction, so the table queue holds nothing
 * about them (issue 18, point 5). Jobs being run are left to end: they find nobody and stop. On
 * BullMQ (scale-out) the same jobs stay in Redis until they run and end that way.
 */
export async function deleteWaitingJobsOfUser(ex: Executor, userId: number): Promise<void> {
  const named = isPostgres(ex) ? sql<boolean>`(payload::jsonb ->> 'userId') = ${String(userId)}` : sql<boolean>`json_extract(payload, '$.userId') = ${userId}`;
  await ex.deleteFrom('jobs').where('state', '=', 'waiting').where(named).execute();
}
