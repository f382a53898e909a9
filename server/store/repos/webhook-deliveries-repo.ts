import type { Executor } from '../database.js';
import type { Insertable, Updateable } from 'kysely';
import type { AttemptRow, DeliveryRow, DeliveryState, WebhookAttemptTable, WebhookDeliveryTable } from '../../webhooks/schema.js';

/** What the delivery log may be filtered by (the dashboard's and the CLI's filters). */
export interface DeliveryQuery {
  endpointId?: number | undefined;
  state?: DeliveryState | undefined;
  eventType?: string | undefined;
  eventId?: string | undefined;
  userId?: number | undefined;
  test?: boolean | undefined;
  /** ISO timestamps bounding created_at. */
  since?: string | undefined;
  until?: string | undefined;
}

/** One page of deliveries, newest first, and how many match in all. */
export async function pageDeliveries(ex: Executor, f: DeliveryQuery, page: number, perPage: number): Promise<{ rows: DeliveryRow[]; total: number }> {
  let q = ex.selectFrom('webhook_deliveries');
  if (f.endpointId !== undefined) q = q.where('endpoint_id', '=', f.endpointId);
  if (f.state !== undefined) q = q.where('state', '=', f.state);
  if (f.eventType !== undefined) q = q.where('event_type', '=', f.eventType);
  if (f.eventId !== undefined) q = q.where('event_id', '=', f.eventId);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  if (f.test !== undefined) q = q.where('is_test', '=', f.test ? 1 : 0);
  if (f.since !== undefined) q = q.where('created_at', '>=', f.since);
  if (f.until !== undefined) q = q.where('created_at', '<', f.until);
  const { count } = await q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { rows, total: Number(count) };
}

export async function deliveryExists(ex: Executor, id: number): Promise<boolean> {
  return (await ex.selectFrom('webhook_deliveries').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export function findDelivery(ex: Executor, id: number): Promise<DeliveryRow | undefined> {
  return ex.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A delivery's attempts in the order they were made. */
export function deliveryAttempts(ex: Executor, deliveryId: number): Promise<AttemptRow[]> {
  return ex.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').orderBy('id').execute();
}

/** Puts a delivery back to pending for one more attempt now. */
export function reopenDelivery(ex: Executor, id: number, now: Date): Promise<DeliveryRow> {
  const iso = now.toISOString();
  return ex
    .updateTable('webhook_deliveries')
    .set({ state: 'pending', next_attempt_at: iso, completed_at: null, updated_at: iso })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface RetentionResult {
  bodiesRemoved: number;
  deliveriesRemoved: number;
  eventsRemoved: number;
}

/**
 * Removes what retention says is due at `now`: bodies past their payload expiry, deliveries (with
 * their attempts) past their expiry, and outbox events dispatched before `eventsBefore`.
 */
export async function removeExpiredDeliveries(ex: Executor, now: Date, eventsBefore: Date): Promise<RetentionResult> {
  const iso = now.toISOString();
  const bodies = await ex
    .updateTable('webhook_deliveries')
    .set({ payload: null })
    .where('payload_expires_at', '<=', iso)
    .where('payload', 'is not', null)
    .executeTakeFirst();
  const expired = ex.selectFrom('webhook_deliveries').select('id').where('expires_at', '<=', iso);
  await ex.deleteFrom('webhook_attempts').where('delivery_id', 'in', expired).execute();
  const deliveries = await ex.deleteFrom('webhook_deliveries').where('expires_at', '<=', iso).executeTakeFirst();
  const events = await ex
    .deleteFrom('events')
    .where('dispatched_at', 'is not', null)
    .where('dispatched_at', '<=', eventsBefore.toISOString())
    .executeTakeFirst();
  return {
    bodiesRemoved: Number(bodies.numUpdatedRows),
    deliveriesRemoved: Number(deliveries.numDeletedRows),
    eventsRemoved: Number(events.numDeletedRows),
  };
}

/** A user's whole delivery log, with its attempts. */
export async function deleteDeliveriesOfUser(ex: Executor, userId: number): Promise<void> {
  const mine = ex.selectFrom('webhook_deliveries').select('id').where('user_id', '=', userId);
  await ex.deleteFrom('webhook_attempts').where('delivery_id', 'in', mine).execute();
  await ex.deleteFrom('webhook_deliveries').where('user_id', '=', userId).execute();
}

/**
 * The deliveries a delivery job names that are still where the job left them: pending, after
 * `after` attempts, and (when the job says) due at `due`.
 */
export function pendingDeliveriesOfJob(ex: Executor, job: { deliveryIds: readonly number[]; after: number; due?: string | undefined }): Promise<DeliveryRow[]> {
  let query = ex
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', 'in', job.deliveryIds)
    .where('state', '=', 'pending')
    .where('attempts', '=', job.after);
  if (job.due !== undefined) query = query.where('next_attempt_at', '=', job.due);
  return query.execute();
}

/** Fails a pending delivery that was never attempted (no endpoint, no usable secret). */
export async function failPendingDelivery(ex: Executor, id: number, reason: string, now: string): Promise<void> {
  await ex
    .updateTable('webhook_deliveries')
    .set({ state: 'failed', last_error: reason, next_attempt_at: null, completed_at: now, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}

/** Writes the outcome of attempts on deliveries (one statement for all the ids). */
export async function settleDeliveries(ex: Executor, ids: readonly number[], outcome: Updateable<WebhookDeliveryTable>): Promise<void> {
  await ex.updateTable('webhook_deliveries').set(outcome).where('id', 'in', ids).execute();
}

export async function insertAttempts(ex: Executor, rows: readonly Insertable<WebhookAttemptTable>[]): Promise<void> {
  await ex
    .insertInto('webhook_attempts')
    .values([...rows])
    .execute();
}

/** Writes new deliveries, leaving alone one that exists (same event and endpoint); returns the new ids. */
export async function insertNewDeliveries(ex: Executor, rows: readonly Insertable<WebhookDeliveryTable>[]): Promise<number[]> {
  const inserted = await ex
    .insertInto('webhook_deliveries')
    .values([...rows])
    .onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing())
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

/** One page (by id after `afterId`) of pending deliveries whose attempt was due by `cutoff`. */
export function overduePendingDeliveries(
  ex: Executor,
  cutoff: string,
  afterId: number,
  limit: number,
): Promise<{ id: number; created_at: string; no_payload: number }[]> {
  return ex
    .selectFrom('webhook_deliveries')
    .select(['id', 'created_at'])
    .select((eb) => eb.case().when('payload', 'is', null).then(1).else(0).end().as('no_payload'))
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', cutoff)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Fails these deliveries if they are still pending and overdue by `cutoff` (the condition again,
 * so of two sweepers only one takes a delivery); returns how many it failed.
 */
export async function failOverdueDeliveries(ex: Executor, ids: readonly number[], cutoff: string, reason: string, now: string): Promise<number> {
  const failed = await ex
    .updateTable('webhook_deliveries')
    .set({ state: 'failed', last_error: reason, next_attempt_at: null, completed_at: now, updated_at: now })
    .where('id', 'in', [...ids])
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', cutoff)
    .executeTakeFirst();
  return Number(failed.numUpdatedRows);
}

/** Makes these deliveries due now if they are still pending and overdue by `cutoff`; returns those it took. */
export function takeOverdueDeliveries(ex: Executor, ids: readonly number[], cutoff: string, now: string): Promise<{ id: number; attempts: number }[]> {
  return ex
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, updated_at: now })
    .where('id', 'in', [...ids])
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', cutoff)
    .returning(['id', 'attempts'])
    .execute();
}

/** The newest deliveries about one user, at most `limit` (a case's timeline). */
export function deliveriesOfUser(
  ex: Executor,
  userId: number,
  limit: number,
): Promise<Pick<DeliveryRow, 'event_type' | 'endpoint_url' | 'state' | 'attempts' | 'last_status' | 'created_at' | 'completed_at'>[]> {
  return ex
    .selectFrom('webhook_deliveries')
    .select(['event_type', 'endpoint_url', 'state', 'attempts', 'last_status', 'created_at', 'completed_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
