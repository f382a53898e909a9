import type { AppContext } from '../context.js';
import { enqueueAttempts, JOB_SIZE } from './relay.js';
import { MANUAL_RETRY_WINDOW_MS } from './schedule.js';
import { recordNotice } from './worker.js';

export const SWEEP_QUEUE = 'webhooks.sweep';
/** How often the sweeper runs, on the application clock. */
export const SWEEP_EVERY_MS = 3_600_000;

/**
 * How late a pending delivery's attempt must be before its job counts as lost. A live job can be
 * late by the time the queue spends retrying a handler that keeps failing (DELIVER_JOB_MAX_ATTEMPTS
 * runs, backoff capped at 10 min: about 8 h) plus a lease or two; 12 h is beyond that, so the
 * sweeper never races a job that is merely retrying. A job that does turn up late all the same
 * finds its deliveries queued again (`due` no longer matches) and does nothing.
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
 * Finds deliveries left `pending` with no job that will ever attempt them: a job that ran out of
 * queue tries (the database down for days), or one lost with the queue's own store. Within the
 * 30-day retry window they are queued again (their attempt count, hence the retry schedule, is
 * kept); past it, or without a body to send, they are failed with the reason, where a manual retry
 * is not possible either. Either way nothing stays pending for ever.
 */
export async function sweepStuckDeliveries(ctx: AppContext): Promise<SweepResult> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const cutoff = new Date(now.getTime() - STUCK_AFTER_MS).toISOString();
  const windowStart = new Date(now.getTime() - MANUAL_RETRY_WINDOW_MS).toISOString();

  const failed = await ctx.db
    .updateTable('webhook_deliveries')
    .set({ state: 'failed', last_error: LOST_JOB_FAILURE, next_attempt_at: null, completed_at: nowIso, updated_at: nowIso })
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', cutoff)
    .where((eb) => eb.or([eb('created_at', '<=', windowStart), eb('payload', 'is', null)]))
    .executeTakeFirst();

  let requeued = 0;
  for (;;) {
    const taken = await ctx.db.transaction().execute(async (trx) => {
      const stuck = await trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', cutoff)
        .orderBy('next_attempt_at')
        .limit(SWEEP_BATCH)
        .execute();
      if (stuck.length === 0) return { seen: 0, rows: [] };
      // The same conditions again in the UPDATE: of two sweepers (several processes) only one
      // takes each delivery, and a delivery attempted meanwhile is left alone.
      const rows = await trx
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: nowIso, updated_at: nowIso })
        .where('id', 'in', stuck.map((r) => r.id))
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', cutoff)
        .returning(['id', 'attempts'])
        .execute();
      const byAttempts = new Map<number, number[]>();
      for (const r of rows) byAttempts.set(r.attempts, [...(byAttempts.get(r.attempts) ?? []), r.id]);
      for (const [after, ids] of byAttempts) {
        for (let i = 0; i < ids.length; i += JOB_SIZE) await enqueueAttempts(ctx, trx, { deliveryIds: ids.slice(i, i + JOB_SIZE), after, due: nowIso });
      }
      return { seen: stuck.length, rows };
    });
    requeued += taken.rows.length;
    if (taken.seen < SWEEP_BATCH) break;
  }

  const result = { requeued, failed: Number(failed.numUpdatedRows) };
  if (result.requeued > 0 || result.failed > 0) {
    ctx.log.warn({ ...result }, 'webhook deliveries stuck pending without a job');
    const parts = [
      result.requeued > 0 ? `${result.requeued} queued again` : '',
      result.failed > 0 ? `${result.failed} failed (past the 30-day retry window)` : '',
    ].filter(Boolean);
    await recordNotice(
      ctx.db,
      'webhook_deliveries_stuck',
      `Webhook deliveries were stuck pending after their delivery jobs were lost: ${parts.join(', ')}.`,
      result,
      now,
    );
  }
  return result;
}
