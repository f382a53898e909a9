import type { Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import { isPostgres } from '../store/migrations/helpers.js';
import type { Executor } from '../store/database.js';
import type { EndpointRow } from './schema.js';
import { enabledEndpoints } from './endpoints-repo.js';
import { markEventsDispatched, undispatchedEvents } from '../store/repos/events-repo.js';
import { insertNewDeliveries } from '../store/repos/webhook-deliveries-repo.js';
import { isTestIdentity } from './test-identity.js';
import { DAY_MS } from './schedule.js';

export const DELIVER_QUEUE = 'webhooks.deliver';
/** Bus channel on which a commit of events wakes the relays of every process (scale-out). */
export const OUTBOX_CHANNEL = 'webhooks.outbox';

/**
 * A delivery job: attempts for one or more deliveries. The relay enqueues one job per batch of
 * new deliveries (first attempts); each retry is a job of its own. `after` is the number of
 * attempts each delivery had when the job was written: a delivery whose attempt was recorded since
 * (a job run again after a crash, a race with a manual retry) is skipped by the stale job. An
 * attempt sent but not yet recorded when the process died is sent again: at least once.
 */
export interface DeliverJob {
  deliveryIds: number[];
  after: number;
  /** A retry asked for by an admin: one attempt, no schedule after it. */
  manual?: boolean;
  /**
   * The deliveries' `next_attempt_at` when the job was written. A delivery queued again since (by
   * the stuck-delivery sweeper) has another, so a job thought lost that turns up after all finds
   * nothing to do instead of sending a second time. Absent in jobs written before it existed.
   */
  due?: string;
}

/** Body retention (spec 6.1 and 8): 30 days; test identities keep theirs 90 days. */
export const PAYLOAD_RETENTION_MS = 30 * DAY_MS;
export const TEST_PAYLOAD_RETENTION_MS = 90 * DAY_MS;
/** Delivery metadata and attempts: 90 days. */
export const METADATA_RETENTION_MS = 90 * DAY_MS;
/** Queue attempts are bounded by our own schedule; this only stops a job that keeps crashing. */
export const DELIVER_JOB_MAX_ATTEMPTS = 50;

/** An endpoint's subscription, parsed once per relay pass. */
export interface Subscription {
  endpoint: EndpointRow;
  types: ReadonlySet<string>;
  /** Watched verification method ids; null for every method. */
  methods: ReadonlySet<number> | null;
}

export function subscriptionOf(endpoint: EndpointRow): Subscription {
  return {
    endpoint,
    types: new Set(JSON.parse(endpoint.event_types) as string[]),
    methods: endpoint.method_ids === null ? null : new Set(JSON.parse(endpoint.method_ids) as number[]),
  };
}

/**
 * Does this endpoint want this event? A subscribed type, and, when it watches some methods, an
 * event about one of them (events about no method, `user.status.changed`, always pass).
 */
export function wants(sub: Subscription, type: string, verificationId: number | null): boolean {
  if (!sub.types.has(type)) return false;
  return sub.methods === null || verificationId === null || sub.methods.has(verificationId);
}

function verificationIdOf(payload: string): number | null {
  const parsed = JSON.parse(payload) as { data?: { verification_id?: unknown } };
  const v = parsed.data?.verification_id;
  return typeof v === 'number' ? v : null;
}

export interface NewDelivery {
  eventId: string;
  endpoint: EndpointRow;
  eventType: string;
  userId: number | null;
  isTest: boolean;
  payload: string;
}

/** Deliveries per job of first attempts. */
export const JOB_SIZE = 100;
/** Rows per multi-row insert: 18 columns each stays far below SQLite's bound-parameter limit. */
const INSERT_CHUNK = 400;

/**
 * Writes deliveries and the job of their first attempts in the caller's transaction; a delivery
 * that already exists (same event and endpoint) is left alone. Returns the new delivery ids.
 */
export async function insertDeliveries(ctx: AppContext, trx: Executor, list: readonly NewDelivery[], now: Date): Promise<number[]> {
  const iso = now.toISOString();
  const ids: number[] = [];
  for (let i = 0; i < list.length; i += INSERT_CHUNK) {
    const inserted = await insertNewDeliveries(
      trx,
      list.slice(i, i + INSERT_CHUNK).map((d) => ({
        event_id: d.eventId,
        endpoint_id: d.endpoint.id,
        endpoint_url: d.endpoint.url,
        event_type: d.eventType,
        user_id: d.userId,
        is_test: d.isTest ? 1 : 0,
        state: 'pending' as const,
        attempts: 0,
        payload: d.payload,
        last_status: null,
        last_error: null,
        next_attempt_at: iso,
        created_at: iso,
        updated_at: iso,
        completed_at: null,
        payload_expires_at: new Date(now.getTime() + (d.isTest ? TEST_PAYLOAD_RETENTION_MS : PAYLOAD_RETENTION_MS)).toISOString(),
        expires_at: new Date(now.getTime() + METADATA_RETENTION_MS).toISOString(),
      })),
    );
    ids.push(...inserted);
  }
  // Jobs of bounded size, so one slow receiver holds back few others and a re-run repeats little.
  for (let i = 0; i < ids.length; i += JOB_SIZE) await enqueueAttempts(ctx, trx, { deliveryIds: ids.slice(i, i + JOB_SIZE), after: 0, due: iso });
  return ids;
}

/** Enqueues attempts (now or after `delayMs`) in the caller's transaction. */
export async function enqueueAttempts(ctx: AppContext, trx: Executor, job: DeliverJob, delayMs = 0): Promise<void> {
  await ctx.queue.enqueue(DELIVER_QUEUE, job, { maxAttempts: DELIVER_JOB_MAX_ATTEMPTS, delayMs }, trx);
}

/**
 * The outbox relay: turns undispatched events into one delivery per subscribed endpoint, and marks
 * them dispatched in the same transaction, so an event is never lost nor fanned out twice. Woken
 * by `ctx.signals` 'outbox' after commits in this process, by the bus channel OUTBOX_CHANNEL after
 * commits in other processes (scale-out: API processes write, worker processes relay), and by a
 * poll (a notice lost with a Redis hiccup, anything left when a process died).
 */
export class OutboxRelay {
  #running = false;
  #busy: Promise<void> | undefined;
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  readonly #onSignal = () => this.wake();

  constructor(
    private readonly ctx: AppContext,
    private readonly options: { batchSize?: number; pollMs?: number; onTick?: () => void } = {},
  ) {}

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.ctx.signals.on('outbox', this.#onSignal);
    this.#unsubscribe = this.ctx.bus.subscribe(OUTBOX_CHANNEL, this.#onSignal);
    const poll = () => {
      this.#timer = setTimeout(() => {
        this.options.onTick?.();
        this.wake();
        poll();
      }, this.options.pollMs ?? 1000);
      this.#timer.unref();
    };
    poll();
    this.wake();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.ctx.signals.off('outbox', this.#onSignal);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#busy;
  }

  /** Relays now (coalescing wake-ups that arrive while a pass runs). */
  wake(): void {
    if (!this.#running) return;
    if (this.#busy) {
      this.#again = true;
      return;
    }
    this.#busy = (async () => {
      try {
        do {
          this.#again = false;
          while (this.#running && (await this.relayBatch()) === (this.options.batchSize ?? 500));
        } while (this.#again && this.#running);
      } catch (error: unknown) {
        // The events stay undispatched; the next poll tries again.
        this.ctx.log.error({ err: error }, 'webhook relay failed');
      } finally {
        this.#busy = undefined;
      }
    })();
  }

  /** Resolves when the current pass (if any) is over. */
  async settled(): Promise<void> {
    while (this.#busy) await this.#busy;
  }

  /** One batch of events in one transaction; returns how many events it took. */
  async relayBatch(): Promise<number> {
    const { ctx } = this;
    const limit = this.options.batchSize ?? 500;
    return ctx.db.transaction().execute(async (trx) => {
      // Several relays on PostgreSQL each take their own events; SQLite serialises writers anyway.
      const events = await undispatchedEvents(trx, limit, isPostgres(ctx.db as unknown as Kysely<unknown>));
      if (events.length === 0) return 0;
      const subs = (await enabledEndpoints(trx)).map(subscriptionOf);
      const anyMethodFilter = subs.some((s) => s.methods !== null);
      const now = ctx.clock.now();
      const fresh: NewDelivery[] = [];
      for (const event of events) {
        // The payload is parsed only when some endpoint filters by method.
        const verificationId = anyMethodFilter ? verificationIdOf(event.payload) : null;
        for (const sub of subs) {
          if (!wants(sub, event.type, verificationId)) continue;
          fresh.push({
            eventId: event.id,
            endpoint: sub.endpoint,
            eventType: event.type,
            userId: event.user_id,
            isTest: isTestIdentity(event),
            payload: event.payload,
          });
        }
      }
      await insertDeliveries(ctx, trx, fresh, now);
      await markEventsDispatched(
        trx,
        events.map((e) => e.id),
        now.toISOString(),
      );
      return events.length;
    });
  }
}
