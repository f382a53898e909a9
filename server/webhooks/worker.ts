import { readFileSync } from 'node:fs';
import { recordWebhookDelivery } from '../metrics/metrics.js';
import { recordNotice } from '../admin/notices-repo.js';
import type { AppContext } from '../context.js';
import type { Executor } from '../store/database.js';
import { signingSecrets } from './endpoints.js';
import { endpointsByIds, patchEndpoint } from './endpoints-repo.js';
import { failPendingDelivery, insertAttempts, pendingDeliveriesOfJob, settleDeliveries } from '../store/repos/webhook-deliveries-repo.js';
import { SigningSecretError } from '../crypto/webhook-secrets.js';
import { enqueueAttempts, type DeliverJob } from './relay.js';
import type { DeliveryRow, EndpointRow } from './schema.js';
import { ATTEMPT_TIMEOUT_MS, DISABLE_AFTER_FAILING_MS, nextRetryDelay, parseRetryAfter } from './schedule.js';
import type { SendResult, WebhookSender } from './sender.js';
import { signedHeaders, type SignedHeaders } from './signing.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** The User-Agent of every delivery, naming Verity and its version. */
export const WEBHOOK_USER_AGENT = `Verity-Webhooks/${VERSION}`;

export type AttemptOutcome = 'success' | 'retry' | 'failed' | 'gone' | 'disabled';

/** A counting semaphore: at most `size` tasks run at once, the others wait in order. */
export class Semaphore {
  #free: number;
  readonly #waiting: (() => void)[] = [];
  constructor(size: number) {
    this.#free = size;
  }
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

interface Attempt {
  delivery: DeliveryRow;
  attempt: number;
  /** Null when nothing was sent (the signing secret could not be opened). */
  headers: SignedHeaders | null;
  started: Date;
  finished: Date;
  result: SendResult;
  job: DeliverJob;
}

/** Requests in flight to one endpoint at most, so a slow receiver cannot hold every slot. */
export const PER_ENDPOINT_IN_FLIGHT = 32;

/**
 * Runs the attempts of one job. Requests go out concurrently (bounded by the shared semaphore);
 * their results are written as they come, several per transaction: the attempt log row, the
 * delivery's new state, the endpoint's health and, for a failure, the retry job, all atomically.
 */
export function deliveryHandler(ctx: AppContext, sender: WebhookSender, inFlight: Semaphore) {
  const recorder = new AttemptRecorder(ctx);
  const perEndpoint = new Map<number, Semaphore>();
  const endpointSlot = (id: number) => {
    let s = perEndpoint.get(id);
    if (!s) perEndpoint.set(id, (s = new Semaphore(PER_ENDPOINT_IN_FLIGHT)));
    return s;
  };
  return async (job: DeliverJob): Promise<void> => {
    const rows = await pendingDeliveriesOfJob(ctx.db, job);
    // Gone (user deleted, retention), settled, or moved on (attempted, queued again) since this job was written.
    if (rows.length === 0) return;
    const endpointIds = [...new Set(rows.map((r) => r.endpoint_id))];
    const endpoints = new Map((await endpointsByIds(ctx.db, endpointIds)).map((e) => [e.id, e]));
    // Secrets are opened once per endpoint and job (the attempts of a job start within moments of
    // each other; a previous secret signing a little past its expiry is harmless).
    const jobStart = ctx.clock.now();
    const secretsOf = new Map<number, string[] | SigningSecretError>();
    const secretsFor = (endpoint: EndpointRow): string[] | SigningSecretError => {
      let s = secretsOf.get(endpoint.id);
      if (s === undefined) {
        try {
          s = signingSecrets(endpoint, jobStart, ctx.config.secret);
        } catch (error: unknown) {
          if (!(error instanceof SigningSecretError)) throw error;
          ctx.log.error({ endpointId: endpoint.id }, error.message);
          s = error;
        }
        secretsOf.set(endpoint.id, s);
      }
      return s;
    };

    const settled = await Promise.allSettled(
      rows.map(async (delivery) => {
        const endpoint = endpoints.get(delivery.endpoint_id);
        if (!endpoint) return finishWithoutAttempt(ctx, delivery, 'endpoint deleted');
        if (endpoint.enabled !== 1) return finishWithoutAttempt(ctx, delivery, `endpoint disabled: ${endpoint.disabled_reason ?? 'by an admin'}`);
        if (delivery.payload === null) return finishWithoutAttempt(ctx, delivery, 'payload no longer kept');
        const body = delivery.payload;
        const secrets = secretsFor(endpoint);
        if (secrets instanceof SigningSecretError) {
          // Nothing is sent unsigned or signed with garbage: the attempt is recorded as failed with
          // the reason and follows the retry schedule, so fixing VERITY_SECRET lets later ones through.
          const at = ctx.clock.now();
          await recorder.record({
            delivery,
            attempt: delivery.attempts + 1,
            headers: null,
            started: at,
            finished: at,
            result: { error: secrets.message, durationMs: 0 },
            job,
          });
          return;
        }
        const attempt = await endpointSlot(endpoint.id).run(() =>
          inFlight.run(async (): Promise<Attempt> => {
            const started = ctx.clock.now();
            const headers = signedHeaders({
              secrets,
              eventId: delivery.event_id,
              timestampSeconds: Math.floor(started.getTime() / 1000),
              body,
              userAgent: WEBHOOK_USER_AGENT,
            });
            const result = await sender.send({
              url: endpoint.url,
              headers: { ...headers },
              body,
              timeoutMs: ATTEMPT_TIMEOUT_MS,
              allowPrivate: ctx.config.allowPrivateWebhooks,
            });
            return { delivery, attempt: delivery.attempts + 1, headers, started, finished: ctx.clock.now(), result, job };
          }),
        );
        // The job ends only once its attempts are written; a failed write fails the job, the queue
        // runs it again and the attempts that were not recorded are made again.
        await recorder.record(attempt);
      }),
    );
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
}

async function finishWithoutAttempt(ctx: AppContext, delivery: DeliveryRow, reason: string): Promise<void> {
  await failPendingDelivery(ctx.db, delivery.id, reason, ctx.clock.now().toISOString());
}

const BATCH_TARGET = 200;
const GATHER_MS = 5;

/**
 * Writes attempt results of every job in batches: results arriving within a few milliseconds share
 * one transaction. `record` resolves once the attempt is committed.
 */
class AttemptRecorder {
  #buffer: { attempt: Attempt; resolve: () => void; reject: (e: unknown) => void }[] = [];
  #loop: Promise<void> | undefined;

  constructor(private readonly ctx: AppContext) {}

  record(attempt: Attempt): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#buffer.push({ attempt, resolve, reject });
      if (!this.#loop) this.#loop = this.#run().finally(() => (this.#loop = undefined));
    });
  }

  async #run(): Promise<void> {
    while (this.#buffer.length > 0) {
      if (this.#buffer.length < BATCH_TARGET) await new Promise((r) => setTimeout(r, GATHER_MS));
      const batch = this.#buffer.splice(0, BATCH_TARGET * 2);
      try {
        await this.ctx.db.transaction().execute((trx) =>
          recordAttempts(
            this.ctx,
            trx,
            batch.map((b) => b.attempt),
          ),
        );
        for (const b of batch) b.resolve();
      } catch (error: unknown) {
        for (const b of batch) b.reject(error);
      }
    }
  }
}

/** Decides and records what each attempt means; see the retry rules in architecture.md. */
async function recordAttempts(ctx: AppContext, trx: Executor, batch: readonly Attempt[]): Promise<void> {
  const now = ctx.clock.now();
  const ids = [...new Set(batch.map((a) => a.delivery.endpoint_id))];
  // Fresh rows: health and enabled may have changed while the requests were out.
  const endpoints = new Map((await endpointsByIds(trx, ids)).map((e) => [e.id, { ...e }]));
  const touched = new Set<EndpointRow>();
  const notices: { endpoint: EndpointRow; reason: string }[] = [];
  const attemptRows = [];
  const successes = new Map<string, { attempt: number; status: number; ids: number[]; completedAt: string }>();

  for (const a of batch) {
    const { result } = a;
    const endpoint = endpoints.get(a.delivery.endpoint_id);
    const ok = result.error === undefined && result.status !== undefined && result.status >= 200 && result.status < 300;
    let outcome: AttemptOutcome;
    let retryInMs: number | null = null;
    const disable = (reason: string) => {
      if (!endpoint || endpoint.enabled !== 1) return;
      Object.assign(endpoint, { enabled: 0, disabled_reason: reason, disabled_at: now.toISOString(), updated_at: now.toISOString() });
      touched.add(endpoint);
      notices.push({ endpoint, reason });
    };
    if (ok) {
      outcome = 'success';
      if (endpoint && endpoint.failing_since !== null) {
        endpoint.failing_since = null;
        touched.add(endpoint);
      }
    } else if (result.status === 410) {
      outcome = 'gone';
      disable('the receiver answered 410 Gone');
    } else if (!endpoint || endpoint.enabled !== 1) {
      // Deleted or disabled while this request was out: nothing more is sent to it.
      outcome = 'failed';
    } else if (result.blocked) {
      // The URL leads to a private address now (it was checked when saved; DNS changed since):
      // retrying on the schedule cannot help, so the endpoint stops until an admin fixes it.
      outcome = 'disabled';
      disable('its address is private, loopback or link-local (refused as when it is saved)');
    } else {
      if (endpoint.failing_since === null) {
        endpoint.failing_since = a.started.toISOString();
        touched.add(endpoint);
      }
      if (a.started.getTime() - Date.parse(endpoint.failing_since) >= DISABLE_AFTER_FAILING_MS) {
        outcome = 'disabled';
        disable('every delivery failed for 5 days');
      } else {
        const scheduled = a.job.manual ? null : nextRetryDelay(a.attempt);
        const asked = parseRetryAfter(result.retryAfter, a.finished);
        retryInMs = scheduled === null ? null : Math.max(scheduled, asked ?? 0);
        outcome = retryInMs === null ? 'failed' : 'retry';
      }
    }
    const error = ok ? null : (result.error ?? `HTTP ${result.status ?? '?'}`);
    const finishedIso = a.finished.toISOString();
    const nextAt = retryInMs === null ? null : new Date(a.finished.getTime() + retryInMs);
    attemptRows.push({
      delivery_id: a.delivery.id,
      attempt: a.attempt,
      started_at: a.started.toISOString(),
      finished_at: finishedIso,
      duration_ms: result.durationMs,
      request_headers: JSON.stringify(a.headers ?? {}),
      response_status: result.status ?? null,
      outcome,
      error,
    });
    recordWebhookDelivery(outcome);
    if (outcome === 'success') {
      // Successes are the bulk: one UPDATE per status and attempt number for the whole batch.
      const key = `${a.attempt}:${result.status}`;
      const group = successes.get(key) ?? { attempt: a.attempt, status: result.status!, ids: [], completedAt: finishedIso };
      group.ids.push(a.delivery.id);
      if (finishedIso > group.completedAt) group.completedAt = finishedIso;
      successes.set(key, group);
      continue;
    }
    await settleDeliveries(trx, [a.delivery.id], {
      state: outcome === 'retry' ? 'pending' : 'failed',
      attempts: a.attempt,
      last_status: result.status ?? null,
      last_error: error,
      next_attempt_at: nextAt?.toISOString() ?? null,
      completed_at: outcome === 'retry' ? null : finishedIso,
      updated_at: finishedIso,
    });
    if (nextAt)
      await enqueueAttempts(
        ctx,
        trx,
        { deliveryIds: [a.delivery.id], after: a.attempt, due: nextAt.toISOString() },
        Math.max(0, nextAt.getTime() - now.getTime()),
      );
  }
  for (const g of successes.values()) {
    await settleDeliveries(trx, g.ids, {
      state: 'succeeded',
      attempts: g.attempt,
      last_status: g.status,
      last_error: null,
      next_attempt_at: null,
      completed_at: g.completedAt,
      updated_at: g.completedAt,
    });
  }
  await insertAttempts(trx, attemptRows);
  for (const e of touched) {
    await patchEndpoint(trx, e.id, {
      failing_since: e.failing_since,
      enabled: e.enabled,
      disabled_reason: e.disabled_reason,
      disabled_at: e.disabled_at,
      updated_at: e.updated_at,
    });
  }
  for (const { endpoint, reason } of notices) {
    await recordNotice(
      trx,
      'webhook_endpoint_disabled',
      `Webhook endpoint ${endpoint.url} was disabled: ${reason}.`,
      { endpoint_id: endpoint.id, url: endpoint.url, reason },
      now,
    );
  }
}
