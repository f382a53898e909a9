import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionStreamEvent } from '../../../../src/api/session-client.js';
import { VerificationStatus, type VerificationStatusValue } from '../../../../server/domain/catalogue.js';
import { moveVerification } from '../../../../server/services/verifications.js';
import { notifyProgress } from '../../../../server/session/progress.js';
import { MAX_STREAMS_PER_SESSION } from '../../../../server/http/session/events.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { client, configureKnowledge, createTemplate, createUser, local, untilEvent } from '../../session/fixtures.js';

/** Knowledge, our method id: a step of its own whose status the test moves as an analysis would. */
const KNOWLEDGE = 21;

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

/** Moves the user's step as the analysis does when it decides (the same service call), and tells the streams. */
async function decide(userId: number, status: VerificationStatusValue, remarks?: string): Promise<void> {
  await server.verity.ctx.db.transaction().execute((trx) => moveVerification(trx, server.clock, userId, KNOWLEDGE, status, remarks ? { remarks } : {}));
  notifyProgress(userId);
}

describe('GET /session/events after completion (issue 20)', () => {
  it('stays open while something sent is still checked, so a refusal after completion reaches the page; ends once nothing is', async () => {
    await configureKnowledge(server, { ask: 1, pass: 1 });
    const template = await createTemplate(server, 'tmpl_events', [KNOWLEDGE]);
    const { id, link } = await createUser(server, { email: 'events@example.com', template_id: template });
    const desktop = client(server);
    await desktop.start(local(server, link));
    // Sent and being checked: the flow may complete (the wait for the checks ran out).
    await decide(id, VerificationStatus.processing);
    const events: SessionStreamEvent[] = [];
    const abort = new AbortController();
    let ended = false;
    const following = desktop
      .follow((e) => events.push(e), abort.signal)
      .then(() => (ended = true))
      .catch((e: unknown) => {
        if (!(e instanceof DOMException)) throw e;
      });
    try {
      await untilEvent(events, (e) => e.type === 'session' && e.data.methods[0]?.status === 'processing');
      await desktop.complete();
      await untilEvent(events, (e) => e.type === 'session' && e.data.state === 'completed');
      expect(ended).toBe(false);

      // The analysis refuses it later: the flow is reopened and the page still hears of it.
      await decide(id, VerificationStatus.rejected, 'The answers did not match.');
      const reopened = await untilEvent(events, (e) => e.type === 'session' && e.data.methods[0]?.status === 'rejected');
      expect(reopened.type === 'session' && reopened.data.state).toBe('in_progress');
      expect(reopened.type === 'session' && reopened.data.methods[0]?.reason).toBe('The answers did not match.');
      expect(ended).toBe(false);
    } finally {
      abort.abort();
      await following;
    }

    // Completed with nothing left to check: the stream says so once and ends.
    await decide(id, VerificationStatus.complete);
    const last: SessionStreamEvent[] = [];
    await desktop.follow((e) => last.push(e), AbortSignal.timeout(8000));
    expect(last.map((e) => e.type === 'session' && e.data.state)).toEqual(['completed']);
  });
});

describe('GET /session/events, many at once', () => {
  it(`one session holds at most ${MAX_STREAMS_PER_SESSION} streams: opening one more closes its oldest, the others keep flowing`, async () => {
    await configureKnowledge(server, { ask: 1, pass: 1 });
    const template = await createTemplate(server, 'tmpl_streams', [KNOWLEDGE]);
    const { id, link } = await createUser(server, { email: 'streams@example.com', template_id: template });
    const desktop = client(server);
    await desktop.start(local(server, link));
    const abort = new AbortController();
    const streams = Array.from({ length: MAX_STREAMS_PER_SESSION + 2 }, () => ({ events: [] as SessionStreamEvent[], ended: false }));
    const following: Promise<unknown>[] = [];
    try {
      for (const stream of streams) {
        following.push(
          desktop
            .follow((e) => stream.events.push(e), abort.signal)
            .then(() => (stream.ended = true))
            .catch((e: unknown) => {
              if (!(e instanceof DOMException)) throw e;
            }),
        );
        // Opened in order: each has its first event before the next opens.
        await untilEvent(stream.events, (e) => e.type === 'session');
      }
      const deadline = Date.now() + 8000;
      while (!(streams[0]!.ended && streams[1]!.ended) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(streams.map((s) => s.ended)).toEqual([true, true, false, false, false, false]);

      // The streams left open still hear of a change.
      await decide(id, VerificationStatus.processing);
      for (const stream of streams.slice(2)) await untilEvent(stream.events, (e) => e.type === 'session' && e.data.methods[0]?.status === 'processing');
      expect(streams[0]!.events.some((e) => e.type === 'session' && e.data.methods[0]?.status === 'processing')).toBe(false);
    } finally {
      abort.abort();
      await Promise.all(following);
    }
  });
});
