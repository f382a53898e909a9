import type { AppContext } from '../context.js';
import { DELIVER_QUEUE, enqueueAttempts, JOB_SIZE, type DeliverJob } from './relay.js';
import { MANUAL_RETRY_WINDOW_MS } from './schedule.js';
import { recordNotice } from '../admin/notices-repo.js';
import { liveJobPayloads } from '../store/repos/jobs-repo.js';
import { failOverdueDeliveries, overduePendingDeliveries, takeOverdueDeliveries } from '../store/repos/webhook-deliveries-repo.js';

export const SWEEP_QUEUE = 'webhooks.sweep';
/** How often the sweeper runs, on the application clock. */
export const SWEEP_EVERY_MS = 3_600_000;

/**
 * How late a pending delivery's attempt must be before the sweeper looks at it. A live job can be
 * late by the time the queue spends retrying a handler that keeps failing (DELIVER_JOB_MAX_ATTEMPTS
 * runs, backoff capped at 10 min: about 8 h) plus a lease or two; 12 h is beyond that.
 */
export const STUCK_AFTER_MS = 12 * 3_600_000;

/** Deliveries looked at per pass of the sweep. */
const SWEEP_BATCH = 500;

export const LOST_JOB_FAILURE =
  'Its delivery job was lost (the database or queue was unreachable for all of its tries) and the 30-day retry window has passed.';

export interface SweepResult {
  /** Deliveries queued again for their next attempt. */
  requeued: number;
  /** Deliveries failed because they are past the retry window (or their body is gone). */
  failed: number;
}

/**
 * Ids of deliveries that a deliver job still waiting or running in the `jobs` table will attempt.
 * That is every live job of the table queue; with BullMQ, the delayed ones (retries) and those not
 * yet moved to Redis. A job already in Redis is not seen here: it is run within moments unless
 * every worker is down, and if it does run after the sweep, `due` makes it a no-op.
 */
async function deliveriesWithLiveJob(ctx: AppContext): Promise<Set<number>> {
  const rows = await liveJobPayloads(ctx.db, DELIVER_QUEUE);
  const ids = new Set<number>();
  for (const r of rows) for (const id of (JSON.parse(r.payload) as DeliverJob).deliveryIds) ids.add(id);
  return ids;
}

/**
 * Finds deliveries left `pending` with no job that will ever attempt them: a job that ran out of
 * queue tries (the database down for days), or one lost with the queue's own store (BullMQ could
 * not record a failure while the database was down). Within the 30-day retry window they are
 * queued again, their attempt count (hence the retry schedule) kept; past it, or without a body to
 * send, they are failed with the reason (a manual retry is not possible then either). Either way
 * nothing stays pending for ever. The job written carries the new `due` time, so should the old
 * job turn up after all, it finds nothing to do instead of sending a second time.
 */
export async function sweepStuckDeliveries(ctx: AppContext): Promise<SweepResult> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const cutoff = new Date(now.getTime() - STUCK_AFTER_MS).toISOString();
  const windowStart = new Date(now.getTime() - MANUAL_RETRY_WINDOW_MS).toISOString();
  let live: Set<number> | undefined;
  const result: SweepResult = { requeued: 0, failed: 0 };

  for (let afterId = 0; ;) {
    const overdue = await overduePendingDeliveries(ctx.db, cutoff, afterId, SWEEP_BATCH);
    if (overdue.length === 0) break;
    afterId = overdue.at(-1)!.id;
    live ??= await deliveriesWithLiveJob(ctx);
    const stuck = overdue.filter((d) => !live!.has(d.id));
    const expired = stuck.filter((d) => d.created_at <= windowStart || Number(d.no_payload) === 1).map((d) => d.id);
    const retry = stuck.filter((d) => !expired.includes(d.id)).map((d) => d.id);

    await ctx.db.transaction().execute(async (trx) => {
      // The conditions again in each UPDATE: of two sweepers (several processes) only one takes a
      // delivery, and one attempted meanwhile is left alone.
      if (expired.length > 0) result.failed += await failOverdueDeliveries(trx, expired, cutoff, LOST_JOB_FAILURE, nowIso);
      if (retry.length === 0) return;
      const taken = await takeOverdueDeliveries(trx, retry, cutoff, nowIso);
      const byAttempts = new Map<number, number[]>();
      for (const r of taken) byAttempts.set(r.attempts, [...(byAttempts.get(r.attempts) ?? []), r.id]);
      for (const [after, ids] of byAttempts) {
        for (let i = 0; i < ids.length; i += JOB_SIZE) await enqueueAttempts(ctx, trx, { deliveryIds: ids.slice(i, i + JOB_SIZE), after, due: nowIso });
      }
      result.requeued += taken.length;
    });
    if (overdue.length < SWEEP_BATCH) break;
  }

  if (result.requeued > 0 || result.failed > 0) {
    ctx.log.warn({ ...result }, 'webhook deliveries were stuck pending without a delivery job');
  }
  if (result.failed > 0) {
    // Queued again is self-healing (the log says so); a failure is for the admins to see.
    await recordNotice(
      ctx.db,
      'webhook_deliveries_lost',
      `${result.failed} webhook ${result.failed === 1 ? 'delivery was' : 'deliveries were'} failed: ${LOST_JOB_FAILURE}`,
      result,
      now,
    );
  }
  return result;
}
