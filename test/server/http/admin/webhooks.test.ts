import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../helpers/manual-clock.js';
import { items, startTestServer, type TestServer } from '../../../helpers/server.js';
import { createUser, moveEmail, settle } from '../../webhooks/fixtures.js';
import { answer, referenceHandler, startReceiver, type Receiver } from '../../webhooks/receiver.js';
import { type AdminClient, signedInAdmin } from './admin-client.js';

let server: TestServer;
let clock: ManualClock;
let receiver: Receiver;
let admin: AdminClient;
beforeEach(async () => {
  clock = new ManualClock(new Date());
  server = await startTestServer({ clock });
  receiver = await startReceiver();
  admin = await signedInAdmin(server);
});
afterEach(async () => {
  await server.close();
  await receiver.close();
});

async function createEndpoint(body: Record<string, unknown> = {}): Promise<{ id: number; secret: string }> {
  const res = await admin.request('POST', '/admin/api/webhooks/endpoints', { url: receiver.url, ...body });
  expect(res.status).toBe(201);
  return { id: Number(res.body.data.id), secret: String(res.body.signing_secret) };
}

describe('/admin/api/webhooks endpoints', () => {
  it('creates an endpoint with all five event types by default and a secret shown once', async () => {
    const { id, secret } = await createEndpoint();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const res = await admin.request('GET', `/admin/api/webhooks/endpoints/${id}`);
    expect(res.body.data.events).toEqual([
      'verification.pending',
      'verification.in-process',
      'verification.completed',
      'verification.rejected',
      'user.status.changed',
    ]);
    expect(res.body.data.enabled).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain(secret);
    const list = await admin.request('GET', '/admin/api/webhooks/endpoints');
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const reveal = await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/reveal`);
    expect(reveal.body.signing_secret).toBe(secret);
  });

  it('two rotations at once both answer a secret that still signs: the later keeps the earlier as its previous', async () => {
    const { id } = await createEndpoint();
    const rotate = () => admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/rotate`, { overlap_hours: 2 });
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([rotate(), rotate()]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const given = answers.map((r) => String(r.body.signing_secret));
      const reveal = await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/reveal`);
      // Each answer is one of the two secrets that sign now: none was dropped by the other rotation.
      expect([reveal.body.signing_secret, reveal.body.previous_signing_secret].map(String).sort()).toEqual(given.sort());
    }
  });

  it('validates the URL, the event types and the methods', async () => {
    expect((await admin.request('POST', '/admin/api/webhooks/endpoints', { url: 'ftp://x.example/' })).body.error_type).toBe('api_validation_error');
    expect((await admin.request('POST', '/admin/api/webhooks/endpoints', { url: receiver.url, events: ['user.deleted'] })).status).toBe(422);
    expect((await admin.request('POST', '/admin/api/webhooks/endpoints', { url: receiver.url, methods: [999] })).status).toBe(422);
  });

  it('rotates the secret with an overlap window during which both secrets sign', async () => {
    const { id, secret: oldSecret } = await createEndpoint({ events: ['verification.completed'] });
    const rotated = await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/rotate`, { overlap_hours: 2 });
    expect(rotated.status).toBe(200);
    const newSecret = String(rotated.body.signing_secret);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body.data.rotation_in_progress).toBe(true);
    const reveal = await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/secret/reveal`);
    expect([reveal.body.signing_secret, reveal.body.previous_signing_secret]).toEqual([newSecret, oldSecret]);

    receiver.behaviour = referenceHandler(newSecret);
    await moveEmail(server, await createUser(server), 'complete');
    await settle(server);
    expect(receiver.received.map((r) => r.status)).toEqual([200]);
    expect(String(receiver.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);

    // After the window only the new secret signs.
    clock.advance(2 * 3_600_000 + 1000);
    await moveEmail(server, await createUser(server), 'complete');
    await settle(server);
    const last = receiver.received.at(-1)!;
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(1);
    const headers = Object.fromEntries(Object.entries(last.headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
    expect(() => new Webhook(oldSecret).verify(last.body, { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) })).toThrow();
  });

  it('disables, enables and deletes an endpoint', async () => {
    const { id } = await createEndpoint();
    expect((await admin.request('PATCH', `/admin/api/webhooks/endpoints/${id}`, { enabled: false })).body.data.enabled).toBe(false);
    await moveEmail(server, await createUser(server), 'complete');
    await settle(server);
    expect(receiver.received).toHaveLength(0);
    expect((await admin.request('PATCH', `/admin/api/webhooks/endpoints/${id}`, { enabled: true })).body.data.enabled).toBe(true);
    expect((await admin.request('DELETE', `/admin/api/webhooks/endpoints/${id}`)).status).toBe(200);
    expect((await admin.request('GET', `/admin/api/webhooks/endpoints/${id}`)).status).toBe(404);
  });
});

describe('/admin/api/webhooks deliveries', () => {
  it('sends a test payload: a synthetic signed event with no user, badged test', async () => {
    const { id, secret } = await createEndpoint();
    receiver.behaviour = referenceHandler(secret);
    const res = await admin.request('POST', `/admin/api/webhooks/endpoints/${id}/test`, { type: 'verification.completed' });
    expect(res.status).toBe(202);
    expect(res.body.data.test).toBe(true);
    await settle(server);
    const [r] = await receiver.waitFor(1);
    expect(r!.status).toBe(200);
    const payload = JSON.parse(r!.body) as { type: string; resource_id: number; data: { email: string } };
    expect(payload.type).toBe('verification.completed');
    expect(payload.resource_id).toBe(0);
    expect(payload.data.email).toContain('VERITY_WEBHOOK_TESTING');
    const shown = await admin.request('GET', `/admin/api/webhooks/deliveries/${res.body.data.id}`);
    expect(shown.body.data.state).toBe('succeeded');
    expect(shown.body.data.payload_masked).toBe(false);
  });

  it('lists with filters and shows one with its attempts and a masked body', async () => {
    const { id: endpointId } = await createEndpoint({ events: ['verification.completed'] });
    receiver.behaviour = answer(500);
    const userId = await createUser(server, { email: 'ann.lee@example.com', reference_id: 'cust-99' });
    await moveEmail(server, userId, 'complete');
    await settle(server);
    receiver.behaviour = answer(200);
    await moveEmail(server, await createUser(server), 'complete');
    await settle(server);

    const all = await admin.request('GET', `/admin/api/webhooks/deliveries?endpoint_id=${endpointId}`);
    expect(all.body.total).toBe(2);
    const pending = await admin.request('GET', '/admin/api/webhooks/deliveries?state=pending');
    expect(items(pending.body.data).map((d) => d.user_id)).toEqual([userId]);
    const byUser = await admin.request('GET', `/admin/api/webhooks/deliveries?user_id=${userId}&event_type=verification.completed`);
    expect(byUser.body.total).toBe(1);
    expect((await admin.request('GET', '/admin/api/webhooks/deliveries?test=true')).body.total).toBe(0);

    const deliveryId = Number(items(pending.body.data)[0]!.id);
    const shown = await admin.request('GET', `/admin/api/webhooks/deliveries/${deliveryId}`);
    const d = shown.body.data;
    expect(d.event_type).toBe('verification.completed');
    expect(d.endpoint_url).toBe(receiver.url);
    expect(d.payload_masked).toBe(true);
    expect(d.payload.data.email).not.toContain('ann.lee');
    expect(d.payload.data.reference_id).not.toBe('cust-99');
    expect(JSON.stringify(d.payload)).not.toContain('ann.lee@example.com');
    const attempts = items(d.attempts_log);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.response_status).toBe(500);
    expect(attempts[0]!.request_headers['webhook-id']).toBe(d.event_id);
    expect(attempts[0]!.request_headers.signature).toMatch(/^[0-9a-f]{64}$/);

    const revealed = await admin.request('GET', `/admin/api/webhooks/deliveries/${deliveryId}?reveal=true`);
    expect(revealed.body.data.payload.data.email).toBe('ann.lee@example.com');
  });

  it('retries a failed delivery by hand and refuses to retry one that is not failed', async () => {
    const { id: endpointId } = await createEndpoint({ events: ['verification.completed'] });
    receiver.behaviour = answer(500);
    await moveEmail(server, await createUser(server), 'complete');
    await settle(server);
    const [row] = await server.verity.ctx.db.selectFrom('webhook_deliveries').selectAll().execute();
    expect((await admin.request('POST', `/admin/api/webhooks/deliveries/${row!.id}/retry`)).status).toBe(409);
    // 410 fails it at once (and disables the endpoint); re-enable, then retry by hand.
    receiver.behaviour = answer(410);
    clock.advance(6000);
    server.verity.ctx.queue.poke();
    await settle(server);
    await admin.request('PATCH', `/admin/api/webhooks/endpoints/${endpointId}`, { enabled: true });
    receiver.behaviour = answer(200);
    const retried = await admin.request('POST', `/admin/api/webhooks/deliveries/${row!.id}/retry`);
    expect(retried.status).toBe(202);
    await settle(server);
    const shown = await admin.request('GET', `/admin/api/webhooks/deliveries/${row!.id}`);
    expect(shown.body.data.state).toBe('succeeded');
    expect(items(shown.body.data.attempts_log).map((a) => a.response_status)).toEqual([500, 410, 200]);
    const notices = await admin.request('GET', '/admin/api/notices');
    expect(items(notices.body.data).map((n) => n.kind)).toEqual(['webhook_endpoint_disabled']);
    const noticeId = Number(items(notices.body.data)[0]!.id);
    expect((await admin.request('POST', `/admin/api/notices/${noticeId}/read`)).status).toBe(200);
    expect(items((await admin.request('GET', '/admin/api/notices?unread=true')).body.data)).toHaveLength(0);
    expect((await admin.request('POST', '/admin/api/notices/999/read')).status).toBe(404);
  });
});
