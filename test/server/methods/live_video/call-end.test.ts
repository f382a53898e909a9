/**
 * How a Live Video call ends without the agent's decision (issue 22): the configured length limit
 * (the deadline stored with the call, both sides told the time and told when it is reached), an
 * operator who resets, approves or rejects the method while the call is in progress, and the user
 * being deleted meanwhile.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VerificationStatus } from '../../../../server/domain/catalogue.js';
import { SessionClient } from '../../../../src/api/session-client.js';
import { ManualClock } from '../../../helpers/manual-clock.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { type AdminClient, signedInAdmin } from '../../http/admin/admin-client.js';
import { createTemplate, createUser, giveConsent, local } from '../../session/fixtures.js';
import { agentSocket, userSocket } from './sockets.js';

const LIMIT_SECONDS = 60;
let server: TestServer;
let clock: ManualClock;
let admin: AdminClient;

beforeEach(async () => {
  clock = new ManualClock(new Date());
  server = await startTestServer({ clock, env: { VERITY_LIVE_VIDEO_MAX_CALL_SECONDS: String(LIMIT_SECONDS) } });
  admin = await signedInAdmin(server);
  await createTemplate(server, 'tmpl_live_video', [12]);
});
afterEach(async () => {
  await server.close();
});

async function liveUser(name: string): Promise<{ id: number; session: SessionClient }> {
  const created = await createUser(server, { email: `${name}@example.com`, first_name: name, last_name: 'Tester', template_id: 'tmpl_live_video' });
  const session = new SessionClient({ baseUrl: server.url });
  await session.start(local(server, created.link));
  await giveConsent(session);
  return { id: created.id, session };
}

async function statusOf(userId: number): Promise<number> {
  const row = await server.verity.ctx.db
    .selectFrom('user_verifications')
    .select('status')
    .where('user_id', '=', userId)
    .where('method_id', '=', 12)
    .executeTakeFirstOrThrow();
  return row.status;
}

/** A user in a call with an agent: both sockets, and the deadline each was told. */
async function inCall(name: string) {
  const { id, session } = await liveUser(name);
  const user = await userSocket(server, session);
  await user.next('waiting');
  const agent = await agentSocket(server, admin);
  await agent.next('queue');
  agent.send({ type: 'pick', user_id: id });
  const picked = await agent.next('picked');
  const connected = await user.next('connected');
  return { id, session, user, agent, picked, connected };
}

describe('the call length limit', () => {
  it('tells both sides when the call ends, ends it at the limit for both, and leaves the step open to join again', async () => {
    const startedAt = clock.now().getTime();
    const { id, session, user, agent, picked, connected } = await inCall('lena');
    expect(Date.parse(connected.ends_at) - startedAt).toBe(LIMIT_SECONDS * 1000);
    expect(picked.ends_at).toBe(connected.ends_at);
    expect(connected.seconds_left).toBe(LIMIT_SECONDS);
    expect(picked.seconds_left).toBe(LIMIT_SECONDS);

    // Before the deadline the call goes on.
    clock.advance((LIMIT_SECONDS - 1) * 1000);
    await expect(user.next('ended', 2500)).rejects.toThrow();
    expect(await statusOf(id)).toBe(VerificationStatus.processing);

    clock.advance(2000);
    expect((await user.next('ended')).reason).toBe('time_limit');
    expect((await agent.next('ended')).reason).toBe('time_limit');
    // Nothing was decided: the method is the user's to try again, and the agent has no call to decide.
    expect(await statusOf(id)).toBe(VerificationStatus.assigned);
    expect((await admin.request('POST', `/admin/api/live-video/${id}/decision`, { decision: 'approve' })).status).toBe(409);
    const again = await userSocket(server, session);
    expect((await again.next('waiting')).position).toBe(1);
    again.close();
    user.close();
    agent.close();
  });
});

describe('an operator changing the method during a call', () => {
  it('ends the call for both when the method is reset on the dashboard; the reset stands and the agent is free', async () => {
    const { id, user, agent } = await inCall('max');
    const reset = await admin.request('POST', `/admin/api/users/${id}/verifications`, {
      method: 'live_video',
      status: 'reset',
      reason: 'Redo in better light',
    });
    expect(reset.status).toBe(200);
    expect((await user.next('ended')).reason).toBe('method_changed');
    expect((await agent.next('ended')).reason).toBe('method_changed');
    expect(await statusOf(id)).toBe(VerificationStatus.reset);
    // The agent is back at the queue: the call is gone, a decision finds nothing.
    expect((await admin.request('POST', `/admin/api/live-video/${id}/decision`, { decision: 'approve' })).status).toBe(409);
    const other = await liveUser('nia');
    const waiting = await userSocket(server, other.session);
    await waiting.next('waiting');
    agent.send({ type: 'pick', user_id: other.id });
    expect((await agent.next('picked')).user_id).toBe(other.id);
    waiting.close();
    user.close();
    agent.close();
  });

  it('ends the call when the method is rejected through the API; the rejection stands', async () => {
    const { id, user, agent } = await inCall('ola');
    const res = await server.api(`/api/users/${id}/verifications`, {
      method: 'PATCH',
      body: { verification_id: 'live_video', status: 'rejected', remarks: 'Fraud' },
    });
    expect(res.status).toBe(200);
    expect((await user.next('ended')).reason).toBe('method_changed');
    expect((await agent.next('ended')).reason).toBe('method_changed');
    expect(await statusOf(id)).toBe(VerificationStatus.rejected);
    user.close();
    agent.close();
  });
});

describe('a user deleted while waiting or in a call', () => {
  it('tells the user and the agent in the call at once, closes the user socket and frees the agent', async () => {
    const { id, user, agent } = await inCall('pia');
    expect((await server.api(`/api/users/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await user.next('ended')).reason).toBe('method_changed');
    expect((await user.closed).reason).toBe('user deleted');
    expect((await agent.next('ended')).reason).toBe('method_changed');
    // The agent can take the next user straight away.
    const other = await liveUser('quin');
    const waiting = await userSocket(server, other.session);
    await waiting.next('waiting');
    agent.send({ type: 'pick', user_id: other.id });
    expect((await agent.next('picked')).user_id).toBe(other.id);
    waiting.close();
    agent.close();
  });

  it('takes a waiting user out of the agents’ queue and closes their socket', async () => {
    const { id, session } = await liveUser('rae');
    const user = await userSocket(server, session);
    await user.next('waiting');
    const agent = await agentSocket(server, admin);
    expect((await agent.next('queue')).waiting.map((w) => w.user_id)).toEqual([id]);
    expect((await server.api(`/api/users/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await user.next('ended')).reason).toBe('method_changed');
    expect((await user.closed).reason).toBe('user deleted');
    expect((await agent.next('queue')).waiting).toEqual([]);
    agent.close();
  });
});
