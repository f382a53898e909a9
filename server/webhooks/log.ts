import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { buildEventPayload } from '../domain/event-payload.js';
import { VerificationStatus } from '../domain/catalogue.js';
import type { EventType } from '../domain/verification-rules.js';
import type { Executor } from '../store/database.js';
import {
  deleteDeliveriesOfUser,
  deliveryAttempts,
  findDelivery,
  pageDeliveries,
  removeExpiredDeliveries,
  reopenDelivery,
  type DeliveryQuery,
  type RetentionResult,
} from '../store/repos/webhook-deliveries-repo.js';
import { findEndpoint } from './endpoints-repo.js';
import { maskPayload } from './masking.js';
import { enqueueAttempts, insertDeliveries, PAYLOAD_RETENTION_MS } from './relay.js';
import type { AttemptRow, DeliveryRow, DeliveryState } from './schema.js';
import { MANUAL_RETRY_WINDOW_MS } from './schedule.js';
import { TEST_MARKER } from './test-identity.js';

/** A delivery's metadata as listed (no body). */
export interface DeliverySummary {
  id: number;
  event_id: string;
  event_type: string;
  endpoint_id: number;
  endpoint_url: string;
  user_id: number | null;
  test: boolean;
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  completed_at: string | null;
  payload_kept: boolean;
  retryable: boolean;
}

export interface AttemptView {
  attempt: number;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  request_headers: Record<string, string>;
  response_status: number | null;
  outcome: string;
  error: string | null;
}

export interface DeliveryDetail extends DeliverySummary {
  /** The body as sent; masked unless revealed (test deliveries are shown whole). Null once expired. */
  payload: unknown;
  payload_masked: boolean;
  attempts_log: AttemptView[];
}

export interface DeliveryFilters extends DeliveryQuery {
  page?: number | undefined;
  perPage?: number | undefined;
}

function retryable(row: DeliveryRow, now: Date): boolean {
  return row.state === 'failed' && row.payload !== null && now.getTime() - Date.parse(row.created_at) <= MANUAL_RETRY_WINDOW_MS;
}

function summary(row: DeliveryRow, now: Date): DeliverySummary {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    endpoint_id: row.endpoint_id,
    endpoint_url: row.endpoint_url,
    user_id: row.user_id,
    test: row.is_test === 1,
    state: row.state,
    attempts: row.attempts,
    last_status: row.last_status,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at,
    created_at: row.created_at,
    completed_at: row.completed_at,
    payload_kept: row.payload !== null,
    retryable: retryable(row, now),
  };
}

/** Deliveries newest first, filtered, paginated. */
export async function listDeliveries(ctx: AppContext, f: DeliveryFilters): Promise<{ data: DeliverySummary[]; total: number; page: number; per_page: number }> {
  const perPage = Math.min(Math.max(f.perPage ?? 50, 1), 200);
  const page = Math.max(f.page ?? 1, 1);
  const { rows, total } = await pageDeliveries(ctx.db, f, page, perPage);
  const now = ctx.clock.now();
  return { data: rows.map((r) => summary(r, now)), total, page, per_page: perPage };
}

function attemptView(a: AttemptRow): AttemptView {
  return {
    attempt: a.attempt,
    started_at: a.started_at,
    finished_at: a.finished_at,
    duration_ms: a.duration_ms,
    request_headers: JSON.parse(a.request_headers) as Record<string, string>,
    response_status: a.response_status,
    outcome: a.outcome,
    error: a.error,
  };
}

/** One delivery with its attempts; the body is masked unless `reveal` (or a test delivery). */
export async function getDelivery(ctx: AppContext, id: number, options: { reveal?: boolean } = {}): Promise<DeliveryDetail | undefined> {
  const row = await findDelivery(ctx.db, id);
  if (!row) return undefined;
  const attempts = await deliveryAttempts(ctx.db, id);
  const masked = !(options.reveal === true || row.is_test === 1);
  const body = row.payload === null ? null : (JSON.parse(row.payload) as unknown);
  return {
    ...summary(row, ctx.clock.now()),
    payload: body === null ? null : masked ? maskPayload(body) : body,
    payload_masked: body !== null && masked,
    attempts_log: attempts.map(attemptView),
  };
}

export class RetryRefused extends Error {
  override name = 'RetryRefused';
}

/**
 * Retries a failed delivery by hand (within 30 days, while its body is kept): one more attempt now.
 * `audit` writes the admin's audit record inside the same transaction.
 */
export async function retryDelivery(ctx: AppContext, id: number, audit?: (trx: Executor) => Promise<void>): Promise<DeliverySummary | undefined> {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const row = await findDelivery(trx, id);
    if (!row) return undefined;
    const now = ctx.clock.now();
    if (row.state !== 'failed') throw new RetryRefused(`Only a failed delivery can be retried (this one is ${row.state}).`);
    if (!retryable(row, now)) throw new RetryRefused('Deliveries can be retried by hand only within 30 days.');
    const endpoint = await findEndpoint(trx, row.endpoint_id);
    if (!endpoint) throw new RetryRefused('The endpoint of this delivery was deleted.');
    if (endpoint.enabled !== 1) throw new RetryRefused('The endpoint is disabled; enable it first.');
    const updated = await reopenDelivery(trx, id, now);
    await enqueueAttempts(ctx, trx, { deliveryIds: [id], after: row.attempts, manual: true });
    await audit?.(trx);
    return summary(updated, now);
  });
  return result;
}

/**
 * Sends a synthetic event without any user (spec 6.1 "Send Test Payload") to one endpoint, through
 * the same queue, signing and log as real events; badged test.
 */
export async function sendTestPayload(
  ctx: AppContext,
  endpointId: number,
  type: EventType = 'verification.completed',
  audit?: (trx: Executor) => Promise<void>,
): Promise<DeliverySummary | undefined> {
  return ctx.db.transaction().execute(async (trx) => {
    const endpoint = await findEndpoint(trx, endpointId);
    if (!endpoint) return undefined;
    const now = ctx.clock.now();
    const eventId = randomUUID();
    const completedAt = now.toISOString();
    const startedAt = new Date(now.getTime() - 95_000).toISOString();
    const payload = buildEventPayload({
      id: eventId,
      type,
      occurredAt: now,
      user: {
        id: 0,
        uuid: '00000000-0000-0000-0000-000000000000',
        email: `${TEST_MARKER}@example.com`,
        status: type === 'user.status.changed' ? 'Verified' : 'Active',
        order_id: null,
        reference_id: TEST_MARKER,
        ip: '192.0.2.1',
        ip_country: 'ZZ',
        last_activity: completedAt,
      },
      verifications: [
        {
          method_id: 1,
          status: VerificationStatus.complete,
          attributes: { email: `${TEST_MARKER}@example.com`, payment_email: null, payment_email_verified: 0 },
          started_at: startedAt,
          completed_at: completedAt,
        },
      ],
      ...(type === 'user.status.changed' ? { previousStatus: 'Active' } : { methodId: 1 }),
    });
    const [id] = await insertDeliveries(ctx, trx, [{ eventId, endpoint, eventType: type, userId: null, isTest: true, payload: JSON.stringify(payload) }], now);
    const row = (await findDelivery(trx, id!))!;
    await audit?.(trx);
    return summary(row, now);
  });
}

/**
 * Retention (spec 6.1, 8): bodies go after 30 days (90 for test identities), delivery metadata with
 * its attempts after 90; dispatched outbox events after 30 days (their payload is a body too).
 */
export function runRetention(ex: Executor, now: Date): Promise<RetentionResult> {
  return removeExpiredDeliveries(ex, now, new Date(now.getTime() - PAYLOAD_RETENTION_MS));
}

/** Deleting a user deletes their delivery log at once (spec 4.7, 6.1). */
export function deleteUserDeliveries(trx: Executor, userId: number): Promise<void> {
  return deleteDeliveriesOfUser(trx, userId);
}
export type { RetentionResult } from '../store/repos/webhook-deliveries-repo.js';
