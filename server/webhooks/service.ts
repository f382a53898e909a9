import { LocalInvalidationBus } from '../cache/invalidation-bus.js';
import type { AppContext } from '../context.js';
import { listEndpoints } from './endpoints-repo.js';
import { signingSecrets } from './endpoints.js';
import { runRetention } from './log.js';
import { DELIVER_QUEUE, OUTBOX_CHANNEL, OutboxRelay, type DeliverJob } from './relay.js';
import { SigningSecretError } from '../crypto/webhook-secrets.js';
import { WebhookSender } from './sender.js';
import { SWEEP_EVERY_MS, SWEEP_QUEUE, sweepStuckDeliveries } from './sweeper.js';
import { deliveryHandler, Semaphore } from './worker.js';

export const RETENTION_QUEUE = 'webhooks.retention';
/** How often retention runs, on the application clock. */
export const RETENTION_EVERY_MS = 3_600_000;

export interface WebhookOptions {
  /** Requests in flight at once per process. */
  concurrency?: number;
  relayPollMs?: number;
}

/**
 * Webhook delivery for one Verity: the outbox relay, the delivery worker, and the periodic jobs
 * (log retention, the stuck-delivery sweeper), all through the durable queue. `register` at build
 * time; `start`/`stop` with the workers.
 */
export class WebhookService {
  readonly sender = new WebhookSender();
  readonly relay: OutboxRelay;
  #nextRetentionAt = 0;
  #nextSweepAt = 0;
  #started = false;
  #forwardScheduled = false;
  /**
   * Scale-out: this process's commits of events (the local 'outbox' signal) told to the relays of
   * the other processes over the bus, at most once per turn of the event loop, so a worker process
   * relays an event written by an API process at once rather than at its next poll (a second).
   */
  readonly #forwardOutbox = () => {
    if (this.#forwardScheduled) return;
    this.#forwardScheduled = true;
    setImmediate(() => {
      this.#forwardScheduled = false;
      this.ctx.bus.publish(OUTBOX_CHANNEL, '');
    });
  };

  constructor(
    private readonly ctx: AppContext,
    private readonly options: WebhookOptions = {},
  ) {
    this.relay = new OutboxRelay(ctx, {
      ...(options.relayPollMs !== undefined ? { pollMs: options.relayPollMs } : {}),
      onTick: () => {
        void this.scheduleRetentionIfDue();
        void this.scheduleSweepIfDue();
      },
    });
    services.set(ctx, this);
    // Embedded, the relay hears the signal itself; only a bus between processes needs the forward.
    if (!(ctx.bus instanceof LocalInvalidationBus)) ctx.signals.on('outbox', this.#forwardOutbox);
  }

  /** Registers the queue consumers; call before the queue starts. */
  register(): void {
    const inFlight = new Semaphore(this.options.concurrency ?? 64);
    // Jobs hold up to 100 deliveries each; the semaphore bounds the requests out at once. The lease
    // outlasts a job whose receivers all time out (15 s each), so a live job is not taken twice.
    this.ctx.queue.process<DeliverJob>(DELIVER_QUEUE, deliveryHandler(this.ctx, this.sender, inFlight), { concurrency: 16, leaseMs: 10 * 60_000 });
    this.ctx.queue.process(
      RETENTION_QUEUE,
      async () => {
        const result = await runRetention(this.ctx.db, this.ctx.clock.now());
        if (result.bodiesRemoved || result.deliveriesRemoved || result.eventsRemoved) {
          this.ctx.log.info({ ...result }, 'webhook log retention');
        }
      },
      { concurrency: 1 },
    );
    this.ctx.queue.process(SWEEP_QUEUE, async () => void (await sweepStuckDeliveries(this.ctx)), { concurrency: 1 });
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.relay.start();
    void this.scheduleRetentionIfDue();
    void this.scheduleSweepIfDue();
    void this.checkSigningSecrets();
  }

  /**
   * Says at start, in the log, which endpoints' secrets do not open under this VERITY_SECRET (it
   * was changed, or differs between processes): their deliveries fail with that reason until fixed.
   */
  async checkSigningSecrets(): Promise<number[]> {
    const unreadable: number[] = [];
    try {
      const now = this.ctx.clock.now();
      for (const endpoint of await listEndpoints(this.ctx.db)) {
        try {
          signingSecrets(endpoint, now, this.ctx.config.secret);
        } catch (error: unknown) {
          if (!(error instanceof SigningSecretError)) throw error;
          unreadable.push(endpoint.id);
          this.ctx.log.error({ endpointId: endpoint.id }, error.message);
        }
      }
    } catch (error: unknown) {
      this.ctx.log.error({ err: error }, 'could not check webhook signing secrets');
    }
    return unreadable;
  }

  /** Stops the relay; deliveries in hand finish with the queue's own stop. */
  async stop(): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    await this.relay.stop();
  }

  /** Drops idle keep-alive connections; after the queue has stopped. */
  close(): void {
    this.ctx.signals.off('outbox', this.#forwardOutbox);
    this.sender.close();
  }

  /**
   * Enqueues the retention job when the application clock has passed the next due time (checked
   * on every relay poll, so a ManualClock moved forward triggers it too).
   */
  async scheduleRetentionIfDue(): Promise<boolean> {
    const now = this.ctx.clock.now().getTime();
    if (now < this.#nextRetentionAt) return false;
    this.#nextRetentionAt = now + RETENTION_EVERY_MS;
    try {
      await this.ctx.queue.enqueue(RETENTION_QUEUE, {}, { maxAttempts: 3 });
    } catch (error: unknown) {
      this.#nextRetentionAt = 0;
      this.ctx.log.error({ err: error }, 'could not schedule webhook retention');
      return false;
    }
    return true;
  }

  /** The same for the stuck-delivery sweeper (sweeper.ts), every SWEEP_EVERY_MS. */
  async scheduleSweepIfDue(): Promise<boolean> {
    const now = this.ctx.clock.now().getTime();
    if (now < this.#nextSweepAt) return false;
    this.#nextSweepAt = now + SWEEP_EVERY_MS;
    try {
      await this.ctx.queue.enqueue(SWEEP_QUEUE, {}, { maxAttempts: 3 });
    } catch (error: unknown) {
      this.#nextSweepAt = 0;
      this.ctx.log.error({ err: error }, 'could not schedule the webhook delivery sweep');
      return false;
    }
    return true;
  }
}

const services = new WeakMap<AppContext, WebhookService>();

/** The webhook service of a running Verity (for the admin routes, the CLI and tests). */
export function webhooksOf(ctx: AppContext): WebhookService {
  const s = services.get(ctx);
  if (!s) throw new Error('webhooks are not set up for this Verity');
  return s;
}
