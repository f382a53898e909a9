import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRedisUrl } from '../../../server/adapters.js';
import { SessionClient, type SessionStreamEvent } from '../../../src/api/session-client.js';
import { insertTemplate } from '../../../server/store/repos/templates-repo.js';
import { startServerPair, type ServerPair } from '../../helpers/server-pair.js';

/**
 * What one process of a scaled-out Verity keeps for itself must not let it disagree with the
 * others: an in-process test server and a `verity serve` child process on one PostgreSQL and one
 * Redis. Session abuse limits are one budget; a template written by one process is seen by the
 * other at once (not after the read cache's TTL); hand-off notices reach a stream on the other.
 */
describe('state shared between processes (PostgreSQL + Redis)', () => {
  let pair: ServerPair;

  beforeAll(async () => {
    pair = await startServerPair('shared');
  }, 240_000);

  afterAll(() => pair?.close());

  const headers = () => ({ authorization: `Bearer ${pair.server.apiKey}`, 'user-agent': 'shared-state-test/1.0', 'content-type': 'application/json' });

  function createUserOn(base: string, body: Record<string, unknown>): Promise<Response> {
    return fetch(`${base}/api/users`, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
  }

  it('counts session starts per IP once across both processes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const base = i % 2 === 0 ? pair.server.url : pair.childUrl;
      const res = await fetch(`${base}/session/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ link: 'https://x.example/security-verify?expires=1&key=k&signature=00' }),
      });
      statuses.push(res.status);
    }
    // 16 went to this process and 15 to the child: only a shared count refuses the 31st.
    expect(statuses.slice(0, 30).every((s) => s === 403)).toBe(true);
    expect(statuses[30]).toBe(429);
    // The later tests start sessions from this IP too: clear the count (only the limiter's keys).
    const location = parseRedisUrl(pair.redisUrl);
    const redis = new Redis(location.url);
    try {
      const keys = await redis.keys(`${location.prefix}:session-start:*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  it('sees a template written by the other process at once, not after the cache TTL', async () => {
    // The child looks the template up and caches "no such template" for its TTL (2 s).
    const cachedAt = Date.now();
    const before = await createUserOn(pair.childUrl, { email: 'cache-1@example.com', template_id: 'tmpl_shared' });
    expect(before.status).toBeGreaterThanOrEqual(400);
    expect(before.status).toBeLessThan(500);

    await insertTemplate(pair.server.verity.ctx.db, {
      name: 'tmpl_shared',
      label: 'Shared',
      methodIds: [1],
      workflowRawIds: [],
      createdAt: pair.server.clock.now().toISOString(),
    });
    // Until the child's cached answer would expire by itself, only the bus notice can make it
    // see the template; the notice travels asynchronously, so ask again until then.
    const expiresAt = cachedAt + 2_000;
    let status = 0;
    let n = 0;
    while (Date.now() < expiresAt - 100) {
      const res = await createUserOn(pair.childUrl, { email: `cache-${++n + 1}@example.com`, template_id: 'tmpl_shared' });
      status = res.status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe(200);
  });

  it('delivers hand-off notices from one process to a progress stream on the other', async () => {
    const created = await createUserOn(pair.server.url, { email: 'handoff-shared@example.com', template_id: 'tmpl_email' });
    expect(created.status).toBe(200);
    const link = new URL(String(((await created.json()) as { magic_link: string }).magic_link));
    // The desktop works with, and follows progress on, the child process.
    const desktop = new SessionClient({ baseUrl: pair.childUrl });
    await desktop.start(`${pair.childUrl}${link.pathname}${link.search}`);
    const events: SessionStreamEvent[] = [];
    const abort = new AbortController();
    const following = desktop
      .follow((e) => events.push(e), abort.signal)
      .catch((e: unknown) => {
        if (!(e instanceof DOMException)) throw e;
      });
    try {
      await until(events, (e) => e.type === 'session');
      const handoff = await desktop.createHandoff();
      const token = new URL(handoff.url).searchParams.get('handoff')!;

      // The phone claims on this process. Streams poll the session state, but hand-off phases
      // reach them only as notices: over Redis, from this process to the child.
      const phone = new SessionClient({ baseUrl: pair.server.url });
      await phone.claimHandoff(token);
      await until(events, (e) => e.type === 'handoff' && e.data.phase === 'claimed');
    } finally {
      abort.abort();
      await following;
    }
  });
});

/** Waits until `events` holds an event matching `test` (the stream runs in the background). */
async function until(events: SessionStreamEvent[], test: (e: SessionStreamEvent) => boolean, ms = 10_000): Promise<SessionStreamEvent> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = events.find(test);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no such event; got ${events.map((e) => e.type).join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
