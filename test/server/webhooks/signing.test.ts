import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { addEndpoint, createUser, deliveries, moveEmail, attempts, settle } from './fixtures.js';
import { referenceHandler, startReceiver, type Receiver } from './receiver.js';

let server: TestServer;
let receiver: Receiver;
beforeEach(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
});
afterEach(async () => {
  await server.close();
  await receiver.close();
});

function headerRecord(h: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

describe('webhook signatures', () => {
  it('are accepted by the spec reference handler and by the standardwebhooks verifier', async () => {
    const { secret } = await addEndpoint(server, { url: receiver.url });
    receiver.behaviour = referenceHandler(secret);
    const userId = await createUser(server, { reference_id: 'cust-42' });
    await moveEmail(server, userId, 'complete');
    await settle(server);

    const got = await receiver.waitFor(1);
    expect(got.length).toBeGreaterThanOrEqual(1);
    const verifier = new Webhook(secret);
    for (const r of got) {
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toMatch(/^Verity-Webhooks\/\d+\.\d+\.\d+$/);
      const body = JSON.parse(r.body) as { id: string };
      expect(r.headers['webhook-id']).toBe(body.id);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
      // Throws on a bad signature or timestamp; returns the parsed payload otherwise.
      expect(verifier.verify(r.body, headerRecord(r.headers))).toEqual(body);
    }
    const rows = await deliveries(server);
    expect(rows.map((d) => d.state)).toEqual(got.map(() => 'succeeded'));
  });

  it('sends exactly the 6.3 payload of the event', async () => {
    await addEndpoint(server, { url: receiver.url, events: ['verification.completed'] });
    const userId = await createUser(server, { reference_id: 'cust-7', order_id: 'ord-1' });
    await moveEmail(server, userId, 'processing');
    await moveEmail(server, userId, 'complete');
    await settle(server);
    const [r] = await receiver.waitFor(1);
    const payload = JSON.parse(r!.body) as Record<string, unknown> & { data: Record<string, unknown>; relationships: Record<string, unknown> };
    expect(Object.keys(payload).sort()).toEqual(['id', 'type', 'subject', 'spec_version', 'occurred_at', 'resource_id', 'relationships', 'data'].sort());
    expect(payload.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(payload.type).toBe('verification.completed');
    expect(payload.spec_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(payload.occurred_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/);
    expect(payload.resource_id).toBe(userId);
    expect(payload.relationships.user_id).toBe(userId);
    expect(payload.relationships.user_uuid).toMatch(/^[0-9a-f-]{36}$/);
    for (const k of [
      'verification_id',
      'verification_name',
      'email',
      'user_status',
      'order_id',
      'ip',
      'ip_country',
      'reference_id',
      'last_activity',
      'verifications',
    ]) {
      expect(payload.data).toHaveProperty(k);
    }
    expect(payload.data.verification_id).toBe(1);
    expect(payload.data.reference_id).toBe('cust-7');
    expect(payload.data.order_id).toBe('ord-1');
    const [entry] = payload.data.verifications as Record<string, unknown>[];
    expect(entry).toMatchObject({ id: 1, name: 'Email', status: { value: 2, friendly: 'Complete' } });
    expect(entry!.attributes).toBeTypeOf('object');
    expect(entry!.start_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(entry!.completed_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(typeof entry!.completion_time).toBe('string');
    // Only the subscribed type was delivered.
    expect((await deliveries(server)).map((d) => d.event_type)).toEqual(['verification.completed']);
  });

  it('a receiver holding another secret answers 403 and the delivery is retried, not lost', async () => {
    await addEndpoint(server, { url: receiver.url, events: ['verification.completed'] });
    receiver.behaviour = referenceHandler('whsec_c29tZSBvdGhlciBzZWNyZXQgb2YgZW5vdWdoIGxlbmd0aA==');
    const userId = await createUser(server);
    await moveEmail(server, userId, 'complete');
    await settle(server);
    const [r] = await receiver.waitFor(1);
    expect(r!.status).toBe(403);
    const [d] = await deliveries(server);
    expect(d!.state).toBe('pending');
    expect((await attempts(server, d!.id)).map((a) => [a.response_status, a.outcome])).toEqual([[403, 'retry']]);
  });

  it('the reference receiver refuses a missing signature with 400', async () => {
    receiver.behaviour = referenceHandler('whsec_abc');
    const res = await fetch(receiver.url, { method: 'POST', body: '{"id":"x"}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
  });

  it('during a rotation both secrets sign the Standard Webhooks header; Signature uses the newest', async () => {
    const { id, secret: oldSecret } = await addEndpoint(server, { url: receiver.url, events: ['verification.completed'] });
    const { rotateSecret } = await import('../../../server/webhooks/endpoints.js');
    const rotated = await rotateSecret(server.verity.ctx.db, id, server.clock.now(), server.config.secret, 3_600_000);
    receiver.behaviour = referenceHandler(rotated!.secret);
    const userId = await createUser(server);
    await moveEmail(server, userId, 'complete');
    await settle(server);
    const [r] = await receiver.waitFor(1);
    expect(r!.status).toBe(200);
    expect(String(r!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    const headers = headerRecord(r!.headers);
    expect(() => new Webhook(oldSecret).verify(r!.body, headers)).not.toThrow();
    expect(() => new Webhook(rotated!.secret).verify(r!.body, headers)).not.toThrow();
  });
});
