/**
 * Live Video's signalling (issue 22): who may open a socket, what a message may be, the queue's
 * order, the relay between user and agent (across two processes on the scale pass), the agent's
 * decisions (status, webhook attributes, audit) and a user who hangs up.
 */
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VerificationStatus } from '../../../../server/domain/catalogue.js';
import { SessionClient } from '../../../../src/api/session-client.js';
import { onScale, startLimiterSharingServers } from '../../../helpers/shared-limiters.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { type AdminClient, signedInAdmin } from '../../http/admin/admin-client.js';
import { createTemplate, createUser, giveConsent, local } from '../../session/fixtures.js';
import { addEndpoint, settle } from '../../webhooks/fixtures.js';
import { startReceiver } from '../../webhooks/receiver.js';
import { agentSocket, refusedStatus, userSocket } from './sockets.js';

let server: TestServer;
let admin: AdminClient;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  server = await startTestServer();
  closers.push(() => server.close());
  admin = await signedInAdmin(server);
  await createTemplate(server, 'tmpl_live_video', [12]);
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A user with Live Video, signed in on `on` (default the test server), consented unless told not to. */
async function liveUser(name: string, options: { consent?: boolean; on?: TestServer } = {}): Promise<{ id: number; session: SessionClient }> {
  const created = await createUser(server, { email: `${name}@example.com`, first_name: name, last_name: 'Tester', template_id: 'tmpl_live_video' });
  const on = options.on ?? server;
  const session = new SessionClient({ baseUrl: on.url });
  await session.start(local(on, created.link));
  if (options.consent !== false) await giveConsent(session);
  else await session.session();
  return { id: created.id, session };
}

async function statusOf(userId: number): Promise<{ status: number; attributes: Record<string, unknown>; remarks: string | null }> {
  const row = await server.verity.ctx.db
    .selectFrom('user_verifications')
    .select(['status', 'attributes', 'remarks'])
    .where('user_id', '=', userId)
    .where('method_id', '=', 12)
    .executeTakeFirstOrThrow();
  return { status: row.status, attributes: JSON.parse(row.attributes) as Record<string, unknown>, remarks: row.remarks };
}

const OFFER = { description: { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' } } as const;

describe('who may open a signalling socket', () => {
  it('refuses a wrong session token, a wrong CSRF token and a user without consent, each with the error and a closed socket', async () => {
    const { session } = await liveUser('ada');
    const wrongToken = await userSocket(server, session, { hello: false });
    wrongToken.send({ ...session.liveVideoSocket().hello, session_token: 'x'.repeat(43) });
    expect((await wrongToken.next('error')).error_type).toBe('session_auth_error');
    expect((await wrongToken.closed).code).toBe(4400);

    const wrongCsrf = await userSocket(server, session, { hello: false });
    wrongCsrf.send({ ...session.liveVideoSocket().hello, csrf_token: 'nope' });
    expect((await wrongCsrf.next('error')).error_type).toBe('session_csrf_error');

    const other = await liveUser('bob', { consent: false });
    const noConsent = await userSocket(server, other.session);
    expect((await noConsent.next('error')).error_type).toBe('session_consent_required');
    expect((await noConsent.closed).code).toBe(4400);
  });

  it('refuses a signal before hello, and a user socket from a foreign origin at the handshake', async () => {
    const { session } = await liveUser('cy');
    const early = await userSocket(server, session, { hello: false });
    early.send({ type: 'signal', signal: OFFER });
    expect((await early.next('error')).error_type).toBe('session_auth_error');
    const url = `${server.url.replace('http', 'ws')}/session/methods/live_video/socket`;
    expect(await refusedStatus(url, { origin: 'https://evil.example' })).toBe(403);
  });

  it('lets only a signed-in admin from the dashboard origin open the agent socket', async () => {
    const url = `${server.url.replace('http', 'ws')}/admin/api/live-video/socket`;
    expect(await refusedStatus(url, { origin: server.config.baseUrl })).toBe(401);
    expect(await refusedStatus(url, { origin: 'https://evil.example', cookie: admin.cookie! })).toBe(403);
    expect(await refusedStatus(url, { origin: server.config.baseUrl, cookie: admin.cookie!, 'sec-fetch-site': 'cross-site' })).toBe(403);
    const agent = await agentSocket(server, admin);
    expect((await agent.next('queue')).waiting).toEqual([]);
    agent.close();
  });
});

describe('messages', () => {
  it('answers bad JSON and a message of the wrong shape with the validation error, and closes on an oversized one', async () => {
    const { session } = await liveUser('dee');
    const user = await userSocket(server, session);
    await user.next('waiting');
    user.send('{not json');
    expect((await user.next('error')).error_type).toBe('api_validation_error');
    user.send({ type: 'signal', signal: { description: { type: 'pranswer', sdp: 1 } } });
    expect((await user.next('error')).error_type).toBe('api_validation_error');
    user.send({ type: 'signal', signal: OFFER });
    expect((await user.next('error')).error_type).toBe('session_method_state_error');
    user.send({ type: 'signal', signal: { description: { type: 'offer', sdp: 'x'.repeat(200_000) } } });
    expect((await user.closed).code).toBe(1009);
  });
});

describe('the queue and a call', () => {
  it('lists waiting users oldest first, tells each their place, and updates both when one leaves', async () => {
    const first = await liveUser('first');
    const second = await liveUser('second');
    const a = await userSocket(server, first.session);
    expect((await a.next('waiting')).position).toBe(1);
    const b = await userSocket(server, second.session);
    expect((await b.next('waiting')).position).toBe(2);
    const agent = await agentSocket(server, admin);
    const queue = await agent.next('queue');
    expect(queue.waiting.map((w) => [w.user_id, w.name])).toEqual([
      [first.id, 'first Tester'],
      [second.id, 'second Tester'],
    ]);
    a.send({ type: 'leave' });
    await a.closed;
    expect((await b.next('waiting')).position).toBe(1);
    expect((await agent.next('queue')).waiting.map((w) => w.user_id)).toEqual([second.id]);
    expect((await statusOf(first.id)).status).toBe(VerificationStatus.assigned);
    agent.close();
    b.close();
  });

  it('relays signals both ways, takes a still, and approves: complete with the attributes, in the webhook, audited, and the user told', async () => {
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    await addEndpoint(server, { url: receiver.url, events: ['verification.completed'] });
    const { id, session } = await liveUser('eve');
    const user = await userSocket(server, session);
    await user.next('waiting');
    const agent = await agentSocket(server, admin);
    agent.send({ type: 'pick', user_id: id });
    expect((await agent.next('picked')).user_id).toBe(id);
    await user.next('connected');
    expect((await statusOf(id)).status).toBe(VerificationStatus.processing);
    user.send({ type: 'signal', signal: OFFER });
    expect((await agent.next('signal')).signal).toEqual(OFFER);
    const answer = { description: { type: 'answer', sdp: 'v=0\r\n' } } as const;
    agent.send({ type: 'signal', signal: answer });
    expect((await user.next('signal')).signal).toEqual(answer);

    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    const still = await fetch(`${server.url}/admin/api/live-video/${id}/stills`, {
      method: 'POST',
      headers: { cookie: admin.cookie!, origin: server.config.baseUrl, 'content-type': 'image/jpeg' },
      body: jpeg,
    });
    expect(still.status).toBe(201);
    const lying = await fetch(`${server.url}/admin/api/live-video/${id}/stills`, {
      method: 'POST',
      headers: { cookie: admin.cookie!, origin: server.config.baseUrl, 'content-type': 'image/jpeg' },
      body: Buffer.from('<html>not an image</html>'),
    });
    expect(lying.status).toBe(422);
    const context = await admin.request('GET', `/admin/api/live-video/${id}/context`);
    expect(context.body.data.stills).toHaveLength(1);

    const decided = await admin.request('POST', `/admin/api/live-video/${id}/decision`, { decision: 'approve' });
    expect(decided.status).toBe(200);
    expect((await user.next('decided')).status).toBe('complete');
    const row = await statusOf(id);
    expect(row.status).toBe(VerificationStatus.complete);
    expect(row.attributes).toMatchObject({ agent_decision: 'approved', reason: null, stills: 1, call_seconds: expect.any(Number) as number });
    // The customer's webhook carries what the agent decided.
    const completed = () => receiver.received.map((r) => r.body).find((b) => b.includes('"verification.completed"'));
    for (let i = 0; i < 50 && !completed(); i++) {
      await settle(server);
      if (!completed()) await receiver.waitFor(receiver.received.length + 1, 200).catch(() => undefined);
    }
    expect(completed()).toContain('"agent_decision":"approved"');
    expect(completed()).toContain('"stills":1');
    const audit = await admin.request('GET', `/admin/api/audit?target_type=user&target_id=${id}`);
    expect(JSON.stringify(audit.body)).toContain('live_video.approve');
    // The call is over: a second decision finds nothing to decide.
    expect((await admin.request('POST', `/admin/api/live-video/${id}/decision`, { decision: 'reject', reason: 'late' })).status).toBe(409);
    agent.close();
    user.close();
  });

  it('gives a user picked by two agents at once to one of them', async () => {
    const { id, session } = await liveUser('fay');
    const user = await userSocket(server, session);
    await user.next('waiting');
    const a = await agentSocket(server, admin);
    const b = await agentSocket(server, admin);
    a.send({ type: 'pick', user_id: id });
    b.send({ type: 'pick', user_id: id });
    const outcomes = await Promise.all(
      [a, b].map(async (s) => {
        const picked = s.next('picked', 3000).then(() => 'picked');
        const refused = s.next('error', 3000).then((e) => e.error_type);
        return Promise.any([picked, refused]);
      }),
    );
    expect(outcomes.sort()).toEqual(['api_conflict_error', 'picked']);
    a.close();
    b.close();
    user.close();
  });

  it('rejects only with a reason, and the reason reaches the method', async () => {
    const { id, session } = await liveUser('gus');
    const user = await userSocket(server, session);
    await user.next('waiting');
    const agent = await agentSocket(server, admin);
    agent.send({ type: 'pick', user_id: id });
    await user.next('connected');
    const bare = await admin.request('POST', `/admin/api/live-video/${id}/decision`, { decision: 'reject' });
    expect(bare.status).toBe(422);
    expect(bare.body.errors).toHaveProperty('reason');
    expect((await admin.request('POST', `/admin/api/live-video/${id}/decision`, { decision: 'reject', reason: 'Not the person on the ID' })).status).toBe(200);
    expect((await user.next('decided')).status).toBe('rejected');
    const row = await statusOf(id);
    expect(row.status).toBe(VerificationStatus.rejected);
    expect(row.remarks).toBe('Not the person on the ID');
    expect(row.attributes).toMatchObject({ agent_decision: 'rejected', reason: 'Not the person on the ID' });
    agent.close();
    user.close();
  });

  it('sends to review with a reason: complete_in_review', async () => {
    const { id, session } = await liveUser('hal');
    const user = await userSocket(server, session);
    await user.next('waiting');
    const agent = await agentSocket(server, admin);
    agent.send({ type: 'pick', user_id: id });
    await user.next('connected');
    expect((await admin.request('POST', `/admin/api/live-video/${id}/decision`, { decision: 'review', reason: 'Poor light' })).status).toBe(200);
    expect((await user.next('decided')).status).toBe('complete_in_review');
    expect((await statusOf(id)).status).toBe(VerificationStatus.complete_in_review);
    agent.close();
    user.close();
  });

  it('puts the method back to assigned when the user hangs up before a decision, and the agent is told', async () => {
    const { id, session } = await liveUser('ivy');
    const user = await userSocket(server, session);
    await user.next('waiting');
    const agent = await agentSocket(server, admin);
    agent.send({ type: 'pick', user_id: id });
    await user.next('connected');
    user.send({ type: 'leave' });
    expect((await agent.next('ended')).reason).toBe('user_left');
    expect((await statusOf(id)).status).toBe(VerificationStatus.assigned);
    expect((await admin.request('POST', `/admin/api/live-video/${id}/decision`, { decision: 'approve' })).status).toBe(409);
    // The step can be tried again: the user joins the queue anew.
    const again = await userSocket(server, session);
    expect((await again.next('waiting')).position).toBe(1);
    again.close();
    agent.close();
  });
});

describe('across processes', () => {
  it('relays signalling between a user on one process and an agent on another', async () => {
    // On the scale pass the two share PostgreSQL and Redis as two `verity serve` would; embedded, one process plays both.
    const [userSide, agentSide] = onScale ? await startLimiterSharingServers() : [server, server];
    if (onScale) {
      closers.push(() => userSide.close());
      closers.push(() => agentSide.close());
      server = userSide;
      admin = await signedInAdmin(agentSide);
      await createTemplate(server, 'tmpl_live_video', [12]);
    }
    const { id, session } = await liveUser('jo', { on: userSide });
    const user = await userSocket(userSide, session);
    await user.next('waiting');
    const agent = await agentSocket(agentSide, admin);
    await agent.next('queue');
    agent.send({ type: 'pick', user_id: id });
    await user.next('connected');
    user.send({ type: 'signal', signal: OFFER });
    expect((await agent.next('signal')).signal).toEqual(OFFER);
    agent.send({ type: 'hangup' });
    expect((await user.next('ended')).reason).toBe('agent_left');
    expect((await user.next('waiting')).position).toBe(1);
    user.close();
    agent.close();
  });
});
