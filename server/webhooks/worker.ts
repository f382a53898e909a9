import { readFileSync } from 'node:fs';
import type { AppContext } from '../context.js';
import { RetryLater } from '../queue/queue.js';
import type { Executor } from '../store/database.js';
import { disableEndpoint, findEndpoint, signingSecrets } from './endpoints.js';
import type { DeliverJob } from './relay.js';
import type { DeliveryRow, EndpointRow } from './schema.js';
import { ATTEMPT_TIMEOUT_MS, DISABLE_AFTER_FAILING_MS, nextRetryDelay, parseRetryAfter } from './schedule.js';
import type { WebhookSender } from './sender.js';
import { signedHeaders } from './signing.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** The User-Agent of every delivery, naming Verity and its version. */
export const WEBHOOK_USER_AGENT = `Verity-Webhooks/${VERSION}`;

export type AttemptOutcome = 'success' | 'retry' | 'failed' | 'gone' | 'disabled';

/** Records an admin notice that the dashboard shows (e.g. an endpoint was turned off). */
export async function recordNotice(ex: Executor, kind: string, message: string, details: object, now: Date): Promise<void> {
  await ex
    .insertInto('admin_notices')
    .values({ kind, message, details: JSON.stringify(details), created_at: now.toISOString(), read_at: null })
    .execute();
}

async function finishWithoutAttempt(ctx: AppContext, delivery: DeliveryRow, reason: string): Promise<void> {
  const iso = ctx.clock.now().toISOString();
  await ctx.db
    .updateTable('webhook_deliveries')
    .set({ state: 'failed', last_error: reason, next_attempt_at: null, completed_at: iso, updated_at: iso })
    .where('id', '=', delivery.id)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Runs one attempt of one delivery: signs, POSTs, logs the attempt, and decides what comes next
 * (done, a retry on the schedule or at the receiver's Retry-After, failed, or endpoint disabled).
 */
export function deliveryHandler(ctx: AppContext, sender: WebhookSender) {
  return async (job: DeliverJob): Promise<void> => {
    const delivery = await ctx.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', job.deliveryId).executeTakeFirst();
    // Gone (user deleted, retention) or already settled by an earlier run of this job.
    if (!delivery || delivery.state !== 'pending') return;
    const endpoint = await findEndpoint(ctx.db, delivery.endpoint_id);
    if (!endpoint) return finishWithoutAttempt(ctx, delivery, 'endpoint deleted');
    if (endpoint.enabled !== 1) return finishWithoutAttempt(ctx, delivery, `endpoint disabled: ${endpoint.disabled_reason ?? 'by an admin'}`);
    if (delivery.payload === null) return finishWithoutAttempt(ctx, delivery, 'payload no longer kept');

    const attempt = delivery.attempts + 1;
    const started = ctx.clock.now();
    const headers = signedHeaders({
      secrets: signingSecrets(endpoint, started),
      eventId: delivery.event_id,
      timestampSeconds: Math.floor(started.getTime() / 1000),
      body: delivery.payload,
      userAgent: WEBHOOK_USER_AGENT,
    });
    const result = await sender.send({
      url: endpoint.url,
      headers: { ...headers },
      body: delivery.payload,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      allowPrivate: ctx.config.allowPrivateWebhooks,
    });
    const finished = ctx.clock.now();
    const ok = result.error === undefined && result.status !== undefined && result.status >= 200 && result.status < 300;

    let outcome: AttemptOutcome;
    let retryInMs: number | null = null;
    let disableReason: string | null = null;
    if (ok) {
      outcome = 'success';
    } else if (result.status === 410) {
      outcome = 'gone';
      disableReason = 'the receiver answered 410 Gone';
    } else {
      const failingSince = endpoint.failing_since ?? started.toISOString();
      if (started.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS) {
        outcome = 'disabled';
        disableReason = 'every delivery failed for 5 days';
      } else {
        const scheduled = job.manual ? null : nextRetryDelay(attempt);
        const asked = parseRetryAfter(result.retryAfter, finished);
        retryInMs = scheduled === null ? null : Math.max(scheduled, asked ?? 0);
        outcome = retryInMs === null ? 'failed' : 'retry';
      }
    }
    const error = ok ? null : (result.error ?? `HTTP ${result.status ?? '?'}`);
    const finishedIso = finished.toISOString();
    const nextAt = retryInMs === null ? null : new Date(finished.getTime() + retryInMs).toISOString();

    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.id,
          attempt,
          started_at: started.toISOString(),
          finished_at: finishedIso,
          duration_ms: result.durationMs,
          request_headers: JSON.stringify(headers),
          response_status: result.status ?? null,
          outcome,
          error,
        })
        .execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({
          state: outcome === 'success' ? 'succeeded' : outcome === 'retry' ? 'pending' : 'failed',
          attempts: attempt,
          last_status: result.status ?? null,
          last_error: error,
          next_attempt_at: nextAt,
          completed_at: outcome === 'retry' ? null : finishedIso,
          updated_at: finishedIso,
        })
        .where('id', '=', delivery.id)
        .execute();
      await updateEndpointHealth(trx, endpoint, ok, started, disableReason, finished);
    });
    if (retryInMs !== null) throw new RetryLater(retryInMs, `attempt ${attempt} failed: ${error}`);
  };
}

async function updateEndpointHealth(
  trx: Executor,
  endpoint: EndpointRow,
  ok: boolean,
  started: Date,
  disableReason: string | null,
  now: Date,
): Promise<void> {
  if (ok) {
    if (endpoint.failing_since !== null) {
      await trx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', endpoint.id).execute();
    }
    return;
  }
  if (endpoint.failing_since === null) {
    // Only the first failure of a run sets it; a success in between (another worker) resets it.
    await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: started.toISOString() })
      .where('id', '=', endpoint.id)
      .where('failing_since', 'is', null)
      .execute();
  }
  if (disableReason !== null) {
    await disableEndpoint(trx, endpoint.id, disableReason, now);
    await recordNotice(
      trx,
      'webhook_endpoint_disabled',
      `Webhook endpoint ${endpoint.url} was disabled: ${disableReason}.`,
      { endpoint_id: endpoint.id, url: endpoint.url, reason: disableReason },
      now,
    );
  }
}
