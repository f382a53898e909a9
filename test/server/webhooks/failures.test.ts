import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { findEndpoint } from '../../../server/webhooks/endpoints-repo.js';
import { retryDelivery, RetryRefused } from '../../../server/webhooks/log.js';
import { JITTER, RETRY_DELAYS_MS } from '../../../server/webhooks/schedule.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { addEndpoint, attempts, createUser, deliveries, moveEmail, settle } from './fixtures.js';
import { answer, startReceiver, type Receiver } from './receiver.js';

let server: TestServer;
let clock: ManualClock;
let receiver: Receiver;
beforeEach(async () => {
  clock = new ManualClock(new Date());
  server = await startTestServer({ clock });
  receiver = await startReceiver();
});
afterEach(async () => {
  await server.close();
  await receiver.close();
});

/** Moves the clock and lets due work run. */
async function advance(ms: number): Promise<void> {
  clock.advance(ms);
  server.verity.ctx.queue.poke();
  await settle(server);
}

/** One completed-Email event for one endpoint; returns the delivery id after the first attempt. */
async function oneDelivery(url = receiver.url): Promise<number> {
  await addEndpoint(server, { url, events: ['verification.completed'] });
  const userId = await createUser(server);
  await moveEmail(server, userId, 'complete');
  await settle(server);
  const [d] = await deliveries(server);
  return d!.id;
}

describe('webhook delivery failures', () => {
  it('retries a 500 on the schedule with jitter, then marks the delivery failed after 8 attempts', async () => {
    receiver.behaviour = answer(500);
    const id = await oneDelivery();
    for (const delay of RETRY_DELAYS_MS) {
      // Just short of the earliest retry: nothing may happen yet.
      await advance(delay - 1000);
      expect(receiver.received.length).toBe((await attempts(server, id)).length);
      await advance(Math.ceil(delay * JITTER) + 2000);
    }
    const log = await attempts(server, id);
    expect(log).toHaveLength(8);
    expect(receiver.received).toHaveLength(8);
    expect(log.map((a) => a.outcome)).toEqual([...Array(7).fill('retry'), 'failed']);
    expect(log.every((a) => a.response_status === 500)).toBe(true);
    for (let i = 1; i < log.length; i++) {
      const gap = Date.parse(log[i]!.started_at) - Date.parse(log[i - 1]!.started_at);
      expect(gap).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i - 1]!);
      expect(gap).toBeLessThanOrEqual(RETRY_DELAYS_MS[i - 1]! * (1 + JITTER) + 3000);
    }
    const [d] = await deliveries(server);
    expect(d).toMatchObject({ state: 'failed', attempts: 8, last_status: 500, next_attempt_at: null });
    // Every attempt re-sent the same event id.
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
  });

  it('a failed delivery can be retried by hand within 30 days, not after', async () => {
    receiver.behaviour = answer(500);
    const id = await oneDelivery();
    for (const delay of RETRY_DELAYS_MS) await advance(Math.ceil(delay * (1 + JITTER)) + 1000);
    expect((await deliveries(server))[0]!.state).toBe('failed');

    receiver.behaviour = answer(204);
    await retryDelivery(server.verity.ctx, id);
    await settle(server);
    const [d] = await deliveries(server);
    expect(d).toMatchObject({ state: 'succeeded', attempts: 9, last_status: 204 });
    expect((await attempts(server, id)).at(-1)).toMatchObject({ attempt: 9, outcome: 'success' });

    // A second delivery that fails and is 31 days old may no longer be retried.
    receiver.behaviour = answer(500);
    const userId = await createUser(server);
    await moveEmail(server, userId, 'complete');
    await settle(server);
    for (const delay of RETRY_DELAYS_MS) await advance(Math.ceil(delay * (1 + JITTER)) + 1000);
    const failed = (await deliveries(server)).find((x) => x.id !== id)!;
    expect(failed.state).toBe('failed');
    clock.advance(31 * 86_400_000);
    await expect(retryDelivery(server.verity.ctx, failed.id)).rejects.toBeInstanceOf(RetryRefused);
  });

  it('a receiver that is down is retried and the attempt says why', async () => {
    const down = await startReceiver();
    const url = down.url;
    await down.close();
    const id = await oneDelivery(url);
    const [a] = await attempts(server, id);
    expect(a).toMatchObject({ attempt: 1, response_status: null, outcome: 'retry', error: 'connection refused' });
    expect((await deliveries(server))[0]!.state).toBe('pending');
  });

  it('429 with Retry-After waits at least as long as the receiver asked', async () => {
    receiver.behaviour = answer(429, { 'retry-after': '120' });
    const id = await oneDelivery();
    await advance(RETRY_DELAYS_MS[0]! * (1 + JITTER) + 1000);
    expect(receiver.received).toHaveLength(1);
    const [d] = await deliveries(server);
    expect(Date.parse(d!.next_attempt_at!) - Date.parse((await attempts(server, id))[0]!.finished_at)).toBe(120_000);
    receiver.behaviour = answer(200);
    await advance(120_000);
    expect(receiver.received).toHaveLength(2);
    expect((await deliveries(server))[0]!.state).toBe('succeeded');
    expect((await attempts(server, id)).map((a) => [a.response_status, a.outcome])).toEqual([
      [429, 'retry'],
      [200, 'success'],
    ]);
  });

  it('a 301 is a failure and the redirect is not followed', async () => {
    receiver.behaviour = (req, _body, res) => {
      if (req.url === '/hooks') res.writeHead(301, { location: '/elsewhere' }).end();
      else res.writeHead(200).end();
    };
    const id = await oneDelivery();
    expect(receiver.received).toHaveLength(1);
    const [a] = await attempts(server, id);
    expect(a).toMatchObject({ response_status: 301, outcome: 'retry' });
    expect(a!.error).toMatch(/redirect .*not followed/);
    expect((await deliveries(server))[0]!.state).toBe('pending');
  });

  it('410 Gone disables the endpoint, tells the admin, and no further deliveries are made to it', async () => {
    receiver.behaviour = answer(410);
    const id = await oneDelivery();
    const [d] = await deliveries(server);
    expect(d).toMatchObject({ state: 'failed', last_status: 410 });
    expect((await attempts(server, id))[0]!.outcome).toBe('gone');
    const endpoint = await findEndpoint(server.verity.ctx.db, d!.endpoint_id);
    expect(endpoint).toMatchObject({ enabled: 0, disabled_reason: 'the receiver answered 410 Gone' });
    const notices = await server.verity.ctx.db.selectFrom('admin_notices').selectAll().execute();
    expect(notices.map((n) => n.kind)).toEqual(['webhook_endpoint_disabled']);

    const userId = await createUser(server);
    await moveEmail(server, userId, 'complete');
    await settle(server);
    expect(await deliveries(server)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
  });

  it('an endpoint that fails everything for 5 days is disabled with an admin notice', async () => {
    receiver.behaviour = answer(503);
    await oneDelivery();
    await advance(4 * 86_400_000);
    const endpointId = (await deliveries(server))[0]!.endpoint_id;
    expect((await findEndpoint(server.verity.ctx.db, endpointId))!.enabled).toBe(1);
    // Another event a day later fails too: five days of nothing but failures.
    await advance(86_400_000);
    const userId = await createUser(server);
    await moveEmail(server, userId, 'complete');
    await settle(server);
    const endpoint = await findEndpoint(server.verity.ctx.db, endpointId);
    expect(endpoint).toMatchObject({ enabled: 0, disabled_reason: 'every delivery failed for 5 days' });
    const notices = await server.verity.ctx.db.selectFrom('admin_notices').selectAll().execute();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toContain(receiver.url);
    expect((await deliveries(server)).every((d) => d.state === 'failed')).toBe(true);
  });

  it('a success in between resets the failing streak', async () => {
    receiver.behaviour = answer(500);
    await oneDelivery();
    receiver.behaviour = answer(200);
    await advance(RETRY_DELAYS_MS[0]! * (1 + JITTER) + 1000);
    const endpointId = (await deliveries(server))[0]!.endpoint_id;
    expect((await findEndpoint(server.verity.ctx.db, endpointId))!.failing_since).toBeNull();
  });

  it('a receiver slower than 15 s is a failed attempt', { timeout: 45_000 }, async () => {
    receiver.behaviour = (_req, _body, res) => {
      setTimeout(() => res.writeHead(200).end(), 17_000);
    };
    const id = await oneDelivery();
    const [a] = await attempts(server, id);
    expect(a).toMatchObject({ outcome: 'retry', response_status: null, error: 'no answer within 15 s' });
    expect(a!.duration_ms).toBeGreaterThanOrEqual(15_000);
    expect(a!.duration_ms).toBeLessThan(16_500);
  });
});

describe('webhook endpoint filters', () => {
  it('delivers only subscribed types and watched methods', async () => {
    const all = await startReceiver();
    const phoneOnly = await startReceiver();
    try {
      await addEndpoint(server, { url: all.url });
      await addEndpoint(server, { url: phoneOnly.url, methods: [2] });
      const userId = await createUser(server, { template_id: 'tmpl_contact' });
      await moveEmail(server, userId, 'complete');
      const phone = await server.api(`/api/users/${userId}/verifications`, { method: 'PATCH', body: { verification_id: 'phone', status: 'complete' } });
      expect(phone.status).toBe(200);
      await settle(server);
      const seen = (r: Receiver) => r.received.map((x) => JSON.parse(x.body) as { type: string; data: { verification_id: number | null } });
      expect(
        seen(all)
          .filter((p) => p.type === 'verification.completed')
          .map((p) => p.data.verification_id)
          .sort(),
      ).toEqual([1, 2]);
      // The phone-only endpoint gets no Email events, but does get Phone and user-level ones.
      const phoneSeen = seen(phoneOnly);
      expect(phoneSeen.filter((p) => p.type === 'verification.completed').map((p) => p.data.verification_id)).toEqual([2]);
      expect(phoneSeen.every((p) => p.data.verification_id !== 1)).toBe(true);
      expect(phoneSeen.filter((p) => p.type === 'user.status.changed')).toHaveLength(seen(all).filter((p) => p.type === 'user.status.changed').length);
    } finally {
      await all.close();
      await phoneOnly.close();
    }
  });
});
