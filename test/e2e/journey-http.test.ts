import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { client, configureKnowledge, createTemplate, createUser, KNOWLEDGE_ANSWERS, latestCode, local, outboxFor } from '../server/session/fixtures.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

async function userStatus(id: number): Promise<string> {
  const res = await server.api(`/api/users/${id}`);
  return String(res.body.data.status);
}

async function eventsOf(id: number): Promise<{ type: string; verification_id: number | null; user_status: string }[]> {
  const rows = await server.verity.ctx.db
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('user_id', '=', id)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => {
    const payload = JSON.parse(r.payload) as { data: { verification_id: number | null; user_status: string } };
    return { type: r.type, verification_id: payload.data.verification_id, user_status: payload.data.user_status };
  });
}

describe('end-user journey over HTTP', () => {
  it('create with send_link → outbox → link → start → email, phone, geolocation, knowledge → Verified and redirect', async () => {
    // Arrange: a template with the four methods, knowledge questions, France only.
    const template = await createTemplate(server, 'tmpl_journey', [1, 2, 8, 21]);
    await configureKnowledge(server);
    await writeSetting(server.verity.ctx.db, 'allowed_countries', ['FR']);
    await writeSetting(server.verity.ctx.db, 'account_name', 'Acme Bank');
    const email = 'journey@example.com';
    const phone = '+33612345678';
    const { id, link: apiLink } = await createUser(server, {
      email,
      phone,
      template_id: template,
      send_link: true,
      reference_id: 'cust-42',
      completion_url: 'https://shop.example/done?x=1',
    });

    // The magic link arrives by e-mail (outbox), branded, with the same link shape as the API's.
    const [mail] = await outboxFor(server, email);
    expect(mail?.channel).toBe('email');
    expect(mail?.subject).toContain('Acme Bank');
    const mailed = /(http\S+\/security-verify\?\S+)/.exec(mail?.text ?? '')?.[1];
    expect(mailed).toBeDefined();
    expect(new URL(mailed!).searchParams.get('key')).toBe(new URL(apiLink).searchParams.get('key'));
    expect(mail?.text).not.toContain(email);

    // Opening the link shows the landing page and starts nothing.
    const landing = await fetch(local(server, mailed!));
    expect(landing.status).toBe(200);
    expect(landing.headers.get('content-type')).toContain('text/html');
    expect(await userStatus(id)).toBe('Unconfirmed');

    // POST start: a session, and the user becomes Active.
    const session = client(server);
    const started = await session.start(local(server, mailed!));
    expect(started.session.methods.map((m) => m.key)).toEqual(['email', 'phone', 'geolocation', 'knowledge']);
    expect(started.session.state).toBe('in_progress');
    expect(started.session.branding.account_name).toBe('Acme Bank');
    expect(await userStatus(id)).toBe('Active');

    // E-mail code.
    await session.startMethod('email');
    const sent = await session.sendCode('email');
    expect(sent.destination_masked).toBe('j***@example.com');
    const emailResult = await session.verifyCode('email', await latestCode(server, email));
    expect(emailResult.method.status).toBe('complete');

    // SMS code (outbox, to the E.164 number).
    await session.sendCode('phone');
    const [sms] = await outboxFor(server, phone);
    expect(sms?.channel).toBe('sms');
    const phoneResult = await session.verifyCode('phone', await latestCode(server, phone));
    expect(phoneResult.method.status).toBe('complete');

    // Geolocation: Paris is inside the allowed countries.
    const geo = await session.submitGeolocation({ latitude: 48.8566, longitude: 2.3522, accuracy: 25, timestamp: server.clock.now().getTime() });
    expect(geo.method.status).toBe('complete');

    // Knowledge: answer the questions shown.
    const view = await session.session();
    const knowledge = view.methods.find((m) => m.key === 'knowledge');
    if (knowledge?.key !== 'knowledge') throw new Error('knowledge step missing');
    expect(knowledge.needs.questions).toHaveLength(2);
    const result = await session.submitKnowledge({
      answers: knowledge.needs.questions.map((q) => ({ question_id: q.id, answer: KNOWLEDGE_ANSWERS[q.id]! })),
    });
    expect(result.method.status).toBe('complete');
    expect(result.state).toBe('ready_to_complete');

    // Completion: redirect to the per-user URL with reference_id and status.
    const done = await session.complete();
    expect(done.reference_id).toBe('cust-42');
    const redirect = new URL(done.redirect_url!);
    expect(redirect.origin + redirect.pathname).toBe('https://shop.example/done');
    expect(redirect.searchParams.get('x')).toBe('1');
    expect(redirect.searchParams.get('reference_id')).toBe('cust-42');
    expect(redirect.searchParams.get('status')).toBe('completed');
    expect((await session.session()).state).toBe('completed');

    // The user is Verified; the outbox holds the events in order.
    expect(await userStatus(id)).toBe('Verified');
    const events = await eventsOf(id);
    expect(events.filter((e) => e.type === 'verification.completed').map((e) => e.verification_id)).toEqual([1, 2, 8, 21]);
    expect(events.filter((e) => e.type === 'user.status.changed').map((e) => e.user_status)).toEqual(['Active', 'Verified']);
    const user = await server.verity.ctx.db
      .selectFrom('users')
      .select(['ip', 'last_activity', 'email_verified_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(user.ip).toMatch(/127\.0\.0\.1/);
    expect(user.last_activity).not.toBeNull();
    expect(user.email_verified_at).not.toBeNull();
  });
});
