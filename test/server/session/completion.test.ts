import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, type SessionClient } from '../../../src/api/session-client.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { writeSetting } from '../../../server/store/repos/settings-repo.js';
import { client, configureKnowledge, createTemplate, createUser, failure, KNOWLEDGE_ANSWERS, local, sessionFor } from './fixtures.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

/** A user with one knowledge question, their link, and a started session (the desktop). */
async function userWithSession(): Promise<{ id: number; link: string; desktop: SessionClient }> {
  await configureKnowledge(server, { ask: 1, pass: 1 });
  const template = await createTemplate(server, 'tmpl_done', [21]);
  const { id, link } = await createUser(server, { email: 'done@example.com', template_id: template });
  const desktop = client(server);
  await desktop.start(local(server, link));
  return { id, link, desktop };
}

async function finish(session: SessionClient): Promise<void> {
  const view = await session.session();
  const k = view.methods[0]!;
  if (k.key !== 'knowledge') throw new Error('no knowledge step');
  await session.submitKnowledge({ answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: KNOWLEDGE_ANSWERS[q.id]! })) });
  await session.complete();
}

async function startWith(link: string): Promise<{ status: number; type: string }> {
  const res = await fetch(`${server.url}/session/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ link }) });
  const body = (await res.json()) as { error_type?: string };
  return { status: res.status, type: body.error_type ?? 'ok' };
}

async function sessionCount(userId: number): Promise<number> {
  const rows = await server.verity.ctx.db
    .withTables<{ user_sessions: { user_id: number } }>()
    .selectFrom('user_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .execute();
  return rows.length;
}

const refused = (e: unknown, status: number, type: string) => e instanceof ApiError && e.status === status && e.error_type === type;

describe('a magic link after the flow was completed (issue 18, point 5)', () => {
  it('shows a "you are done" page with nothing to start, and POST /session/start refuses with session_flow_completed', async () => {
    const { id, link, desktop } = await userWithSession();
    await finish(desktop);
    const before = await sessionCount(id);

    const page = await fetch(local(server, link));
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Thank you, you are done');
    expect(text).not.toContain('id="start"');
    expect(text).not.toContain('/session/start');

    expect(await startWith(link)).toEqual({ status: 409, type: 'session_flow_completed' });
    expect(await sessionCount(id)).toBe(before);
  });

  it('says so in each of the six locales', async () => {
    const { link, desktop } = await userWithSession();
    await finish(desktop);
    const titles = new Set<string>();
    for (const locale of ['en', 'es', 'fr', 'de', 'pt', 'ar']) {
      const res = await fetch(local(server, link), { headers: { 'accept-language': locale } });
      const text = await res.text();
      expect(res.status, locale).toBe(200);
      expect(text, locale).toContain(`<html lang="${locale}"`);
      titles.add(/<h1>([^<]+)<\/h1>/.exec(text)![1]!);
    }
    expect(titles.size).toBe(6);
  });

  it('ends unclaimed hand-off tokens and their short links, and makes no new ones', async () => {
    const { desktop } = await userWithSession();
    const handoff = await desktop.createHandoff();
    const token = new URL(handoff.url).searchParams.get('handoff')!;
    const shortPath = new URL(handoff.short_url).pathname;
    await finish(desktop);

    expect((await fetch(local(server, handoff.url))).status).toBe(410);
    expect((await fetch(`${server.url}${shortPath}`, { redirect: 'manual' })).status).toBe(403);
    const claim = await client(server)
      .claimHandoff(token)
      .catch((e: unknown) => e);
    expect(refused(claim, 410, 'session_handoff_invalid')).toBe(true);
    const again = await desktop.createHandoff().catch((e: unknown) => e);
    expect(refused(again, 409, 'session_flow_completed')).toBe(true);
  });

  it('works again once the customer reopens a method of the flow', async () => {
    const { id, link, desktop } = await userWithSession();
    await finish(desktop);
    const reset = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 21, status: 'reset' } });
    expect(reset.status).toBe(200);
    expect(await startWith(link)).toEqual({ status: 200, type: 'ok' });
  });
});

describe('methods not assigned and completion', () => {
  it('answers 404 for a method the template does not have, 409 for completing too early', async () => {
    const { session } = await sessionFor(server, [1]);
    const e = await failure(session.startMethod('phone'));
    expect(e.status).toBe(404);
    expect(e.error_type).toBe('session_method_not_assigned');
    const early = await failure(session.complete());
    expect(early.status).toBe(409);
    expect(early.error_type).toBe('session_incomplete');
  });

  it('redirects to the account default when the user has no URL, never to a non-http(s) URL', async () => {
    await writeSetting(server.verity.ctx.db, 'default_completion_url', 'https://bank.example/after?reference_id=spoof&status=x');
    await configureKnowledge(server, { ask: 1, pass: 1 });
    const { session, id } = await sessionFor(server, [21]);
    // The API refuses such URLs; the redirect must not trust the stored value either.
    await server.verity.ctx.db
      .updateTable('users')
      .set({ completion_url: 'javascript:alert(1)', redirect_url: 'data:text/html,x' })
      .where('id', '=', id)
      .execute();
    const k = (await session.session()).methods[0]!;
    if (k.key !== 'knowledge') throw new Error('no knowledge step');
    await session.submitKnowledge({ answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: KNOWLEDGE_ANSWERS[q.id]! })) });
    const done = await session.complete();
    expect(done.reference_id).toBeNull();
    const url = new URL(done.redirect_url!);
    expect(url.origin + url.pathname).toBe('https://bank.example/after');
    expect(url.searchParams.getAll('status')).toEqual(['completed']);
    expect(url.searchParams.has('reference_id')).toBe(false);
  });
});
