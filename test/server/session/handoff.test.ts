import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionStreamEvent } from '../../../src/api/session-client.js';
import { ApiError } from '../../../src/api/session-client.js';
import { writeSetting } from '../../../server/store/repos/settings-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { client, configureKnowledge, createTemplate, createUser, KNOWLEDGE_ANSWERS, local, untilEvent } from './fixtures.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('cross-device hand-off and live progress', () => {
  it('the phone claims a one-time token, works, finishes; the desktop follows over SSE', async () => {
    await configureKnowledge(server, { ask: 1, pass: 1 });
    const template = await createTemplate(server, 'tmpl_handoff', [21]);
    const { link } = await createUser(server, { email: 'desk@example.com', template_id: template, reference_id: 'r-9' });
    const desktop = client(server);
    await desktop.start(local(server, link));

    const events: SessionStreamEvent[] = [];
    const abort = new AbortController();
    const following = desktop
      .follow((e) => events.push(e), abort.signal)
      .catch((e: unknown) => {
        if (!(e instanceof DOMException)) throw e;
      });
    const first = await untilEvent(events, (e) => e.type === 'session');
    expect(first.type === 'session' && first.data.state).toBe('in_progress');

    const handoff = await desktop.createHandoff();
    const token = new URL(handoff.url).searchParams.get('handoff')!;
    expect(new URL(handoff.url).pathname).toBe('/security-verify');
    // The hand-off page only shows the landing page; the short link leads to it.
    expect((await fetch(local(server, handoff.url))).status).toBe(200);
    const short = await fetch(`${server.url}${new URL(handoff.short_url).pathname}`, { redirect: 'manual' });
    expect(short.status).toBe(302);
    expect(short.headers.get('location')).toBe(handoff.url);

    const phone = client(server);
    const claimed = await phone.claimHandoff(token);
    expect(claimed.session.via_handoff).toBe(true);
    expect(claimed.session_token).not.toBe(desktop.token);
    await untilEvent(events, (e) => e.type === 'handoff' && e.data.phase === 'claimed');

    // Single use: a second claim fails, and the short link is gone.
    const again = await phone.claimHandoff(token).catch((e: unknown) => e);
    expect(again instanceof ApiError && again.status === 410 && again.error_type === 'session_handoff_invalid').toBe(true);
    expect((await fetch(`${server.url}${new URL(handoff.short_url).pathname}`, { redirect: 'manual' })).status).toBe(403);

    // The phone answers; the desktop sees the method complete, then the finish.
    const k = claimed.session.methods[0]!;
    if (k.key !== 'knowledge') throw new Error('no knowledge step');
    await phone.submitKnowledge({ answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: KNOWLEDGE_ANSWERS[q.id]! })) });
    await untilEvent(events, (e) => e.type === 'session' && e.data.state === 'ready_to_complete');
    const done = await phone.complete();
    expect(done.reference_id).toBe('r-9');
    await untilEvent(events, (e) => e.type === 'handoff' && e.data.phase === 'finished');
    await untilEvent(events, (e) => e.type === 'session' && e.data.state === 'completed');
    // The stream ends once completed.
    await following;
    abort.abort();
  });

  it('refuses hand-off when the account disabled it, and expired tokens', async () => {
    const template = await createTemplate(server, 'tmpl_h2', [1]);
    const { link } = await createUser(server, { email: 'h2@example.com', template_id: template });
    const desktop = client(server);
    await desktop.start(local(server, link));
    const handoff = await desktop.createHandoff();
    (server.clock as unknown as { advance(ms: number): void }).advance(10 * 60 * 1000 + 1);
    const token = new URL(handoff.url).searchParams.get('handoff')!;
    expect((await fetch(local(server, handoff.url))).status).toBe(410);
    const expired = await client(server)
      .claimHandoff(token)
      .catch((e: unknown) => e);
    expect(expired instanceof ApiError && expired.error_type === 'session_handoff_invalid').toBe(true);

    await writeSetting(server.verity.ctx.db, 'handoff_enabled', false);
    const off = await desktop.createHandoff().catch((e: unknown) => e);
    expect(off instanceof ApiError && off.status === 409 && off.error_type === 'session_method_state_error').toBe(true);
  });
});
