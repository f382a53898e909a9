import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { webhooksOf } from '../../../server/webhooks/service.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { addEndpoint, createUser, deliveries, moveEmail, settle } from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

const DAY = 86_400_000;
let server: TestServer;
let clock: ManualClock;
let receiver: Receiver;
beforeEach(async () => {
  clock = new ManualClock(new Date());
  server = await startTestServer({ clock });
  receiver = await startReceiver();
  await addEndpoint(server, { url: receiver.url, events: ['verification.completed'] });
});
afterEach(async () => {
  await server.close();
  await receiver.close();
});

/** Moves the clock, and lets the scheduled retention job run through the queue. */
async function advanceAndRetain(ms: number): Promise<void> {
  clock.advance(ms);
  await webhooksOf(server.verity.ctx).scheduleRetentionIfDue();
  server.verity.ctx.queue.poke();
  await server.verity.ctx.queue.whenIdle();
}

async function completedUser(body: Record<string, unknown> = {}): Promise<number> {
  const id = await createUser(server, body);
  await moveEmail(server, id, 'complete');
  return id;
}

describe('webhook log retention', () => {
  it('drops bodies after 30 days and metadata after 90; test identities keep bodies 90 days', async () => {
    const plain = await completedUser();
    const byName = await completedUser({ username: 'VERITY_WEBHOOK_TESTING_alice' });
    const byEmail = await completedUser({ email: 'qa+VERITY_WEBHOOK_TESTING@example.com' });
    await settle(server);
    const rows = await deliveries(server);
    expect(rows.map((d) => [d.user_id, d.is_test, d.state])).toEqual([
      [plain, 0, 'succeeded'],
      [byName, 1, 'succeeded'],
      [byEmail, 1, 'succeeded'],
    ]);

    await advanceAndRetain(29 * DAY);
    expect((await deliveries(server)).every((d) => d.payload !== null)).toBe(true);

    await advanceAndRetain(1 * DAY + 60_000);
    let after = await deliveries(server);
    expect(after.map((d) => [d.user_id, d.payload === null])).toEqual([
      [plain, true],
      [byName, false],
      [byEmail, false],
    ]);
    // Metadata and attempts stay.
    const attemptCount = await server.verity.ctx.db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(attemptCount.n)).toBe(3);
    // The outbox copies of the events (full payloads) go with the bodies.
    const events = await server.verity.ctx.db.selectFrom('events').select('id').execute();
    expect(events).toHaveLength(0);

    await advanceAndRetain(59 * DAY);
    after = await deliveries(server);
    expect(after).toHaveLength(3);
    expect(after.filter((d) => d.payload !== null).map((d) => d.user_id)).toEqual([byName, byEmail]);

    await advanceAndRetain(1 * DAY);
    expect(await deliveries(server)).toHaveLength(0);
    const left = await server.verity.ctx.db.selectFrom('webhook_attempts').select('id').execute();
    expect(left).toHaveLength(0);
  });

  it('deleting a user deletes its delivery log at once', async () => {
    const gone = await completedUser();
    const kept = await completedUser();
    await settle(server);
    expect(await deliveries(server)).toHaveLength(2);
    const res = await server.api(`/api/users/${gone}`, { method: 'DELETE' });
    expect(res.status).toBeLessThan(300);
    const rows = await deliveries(server);
    expect(rows.map((d) => d.user_id)).toEqual([kept]);
    const attemptsLeft = await server.verity.ctx.db.selectFrom('webhook_attempts').select('delivery_id').execute();
    expect(attemptsLeft.map((a) => a.delivery_id)).toEqual([rows[0]!.id]);
  });
});
