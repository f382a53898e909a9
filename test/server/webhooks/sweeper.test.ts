import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { exponentialBackoff } from '../../../server/queue/queue.js';
import { DELIVER_JOB_MAX_ATTEMPTS, DELIVER_QUEUE, type DeliverJob } from '../../../server/webhooks/relay.js';
import { webhooksOf } from '../../../server/webhooks/service.js';
import { LOST_JOB_FAILURE, STUCK_AFTER_MS, sweepStuckDeliveries } from '../../../server/webhooks/sweeper.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { addEndpoint, attempts, createUser, deliveries, moveEmail } from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let server: TestServer;
let clock: ManualClock;
let receiver: Receiver;
beforeEach(async () => {
  clock = new ManualClock(new Date());
  // Workers start later: first the delivery job is written and then lost, as after days of outage.
  server = await startTestServer({ clock, workers: false });
  receiver = await startReceiver();
  await addEndpoint(server, { url: receiver.url, events: ['verification.completed'] });
});
afterEach(async () => {
  await server.close();
  await receiver.close();
});

function deliverJobs() {
  return server.verity.ctx.db.selectFrom('jobs').selectAll().where('queue', '=', DELIVER_QUEUE).orderBy('id').execute();
}

/**
 * An event relayed into a delivery and its job, then the job exhausting its queue tries: the state
 * both queue adapters leave (a `failed` row) when every run failed, e.g. the database was down.
 */
async function deliveryWhoseJobRanOut(): Promise<number> {
  const userId = await createUser(server);
  await moveEmail(server, userId, 'complete');
  expect(await webhooksOf(server.verity.ctx).relay.relayBatch()).toBeGreaterThan(0);
  const [job] = await deliverJobs();
  await server.verity.ctx.db
    .updateTable('jobs')
    .set({ state: 'failed', attempts: DELIVER_JOB_MAX_ATTEMPTS, last_error: 'Error: connect ECONNREFUSED (database)', finished_at: clock.now().toISOString() })
    .where('id', '=', job!.id)
    .execute();
  const [delivery] = await deliveries(server);
  expect(delivery).toMatchObject({ state: 'pending', attempts: 0 });
  return delivery!.id;
}

/** Moves the clock, lets the scheduled sweep (and whatever it queues) run through the real queue. */
async function advanceAndSweep(ms: number): Promise<void> {
  clock.advance(ms);
  await webhooksOf(server.verity.ctx).scheduleSweepIfDue();
  server.verity.ctx.queue.poke();
  await server.verity.ctx.queue.whenIdle();
}

describe('stuck-delivery sweeper', () => {
  it('queues again a pending delivery whose job ran out of tries, once it is overdue, and it is delivered', async () => {
    const id = await deliveryWhoseJobRanOut();
    await server.verity.startWorkers();
    await advanceAndSweep(HOUR);
    // Not yet: a job may still be retrying this late.
    expect((await deliveries(server))[0]).toMatchObject({ state: 'pending', attempts: 0 });
    expect(receiver.received).toHaveLength(0);

    await advanceAndSweep(STUCK_AFTER_MS);
    await receiver.waitFor(1);
    const [d] = await deliveries(server);
    expect(d).toMatchObject({ id, state: 'succeeded', attempts: 1, last_status: 200 });
    expect((await attempts(server, id)).map((a) => a.outcome)).toEqual(['success']);

    // Nothing is swept twice.
    await advanceAndSweep(STUCK_AFTER_MS + HOUR);
    expect(receiver.received).toHaveLength(1);
  });

  it('fails a stuck delivery past the 30-day retry window with the reason, sending nothing', async () => {
    await deliveryWhoseJobRanOut();
    await server.verity.startWorkers();
    await advanceAndSweep(31 * DAY);
    const [d] = await deliveries(server);
    expect(d).toMatchObject({ state: 'failed', attempts: 0, last_error: LOST_JOB_FAILURE, next_attempt_at: null });
    expect(d!.completed_at).not.toBeNull();
    expect(receiver.received).toHaveLength(0);
    const notices = await server.verity.ctx.db.selectFrom('admin_notices').selectAll().where('kind', '=', 'webhook_deliveries_lost').execute();
    expect(notices.map((n) => n.message)).toEqual([`1 webhook delivery was failed: ${LOST_JOB_FAILURE}`]);
  });

  it('leaves alone an overdue delivery whose job is still waiting (a server that was down for a day)', async () => {
    const userId = await createUser(server);
    await moveEmail(server, userId, 'complete');
    await webhooksOf(server.verity.ctx).relay.relayBatch();
    clock.advance(DAY);
    expect(await sweepStuckDeliveries(server.verity.ctx)).toEqual({ requeued: 0, failed: 0 });
    expect(await deliverJobs()).toHaveLength(1);
    await server.verity.startWorkers();
    await receiver.waitFor(1);
    await server.verity.ctx.queue.whenIdle();
    expect((await deliveries(server))[0]).toMatchObject({ state: 'succeeded', attempts: 1 });
  });

  it('keeps the attempt count, so the retry schedule goes on where it stopped', async () => {
    const id = await deliveryWhoseJobRanOut();
    // As if three attempts had failed and the job of the fourth was lost.
    await server.verity.ctx.db.updateTable('webhook_deliveries').set({ attempts: 3 }).where('id', '=', id).execute();
    const result = await (async () => {
      clock.advance(STUCK_AFTER_MS + 1);
      return sweepStuckDeliveries(server.verity.ctx);
    })();
    expect(result).toEqual({ requeued: 1, failed: 0 });
    const fresh = (await deliverJobs()).filter((j) => j.state === 'waiting');
    expect(fresh.map((j) => JSON.parse(j.payload) as DeliverJob)).toEqual([{ deliveryIds: [id], after: 3, due: clock.now().toISOString() }]);
  });

  it('a lost job that turns up after its deliveries were queued again sends nothing', async () => {
    const id = await deliveryWhoseJobRanOut();
    clock.advance(STUCK_AFTER_MS + 1);
    expect(await sweepStuckDeliveries(server.verity.ctx)).toEqual({ requeued: 1, failed: 0 });
    // The old job comes back (e.g. a worker thought dead), and the new one is held back.
    const [old, fresh] = await deliverJobs();
    await server.verity.ctx.db.deleteFrom('jobs').where('id', '=', fresh!.id).execute();
    await server.verity.ctx.db
      .updateTable('jobs')
      .set({ state: 'waiting', attempts: 0, run_at: clock.now().toISOString(), finished_at: null })
      .where('id', '=', old!.id)
      .execute();
    await server.verity.startWorkers();
    server.verity.ctx.queue.poke();
    await server.verity.ctx.queue.whenIdle();
    expect(receiver.received).toHaveLength(0);
    expect((await deliveries(server))[0]).toMatchObject({ id, state: 'pending', attempts: 0 });
  });

  it('waits longer than the queue can keep retrying a live job', () => {
    // The worst case of the deliver queue's own retries: every backoff at its largest jitter.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    try {
      let span = 0;
      for (let attempt = 1; attempt < DELIVER_JOB_MAX_ATTEMPTS; attempt++) span += exponentialBackoff(attempt);
      expect(STUCK_AFTER_MS).toBeGreaterThan(span);
    } finally {
      random.mockRestore();
    }
  });
});
