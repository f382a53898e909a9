import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRedisUrl } from '../../../server/adapters.js';
import { createApiKey, revokeApiKey } from '../../../server/store/repos/api-keys-repo.js';
import { startServerPair, type ServerPair } from '../../helpers/server-pair.js';

/**
 * Each API process caches active keys (issue 2), yet a key revoked in one process must be refused
 * by every other at once: an in-process test server and a `verity serve` child process on one
 * PostgreSQL and one Redis; the child holds the key in its cache when the test server revokes it.
 */
describe('API key revocation across processes (PostgreSQL + Redis)', () => {
  let pair: ServerPair;

  beforeAll(async () => {
    pair = await startServerPair('keys', { workers: false });
  }, 240_000);

  afterAll(() => pair?.close());

  const fromChild = (key: string) => fetch(`${pair.childUrl}/api/users`, { headers: { authorization: `Bearer ${key}`, 'user-agent': 'keys-test/1.0' } });

  it('the other process refuses a revoked key as soon as the notice has crossed Redis', { timeout: 60_000 }, async () => {
    const { db } = pair.server.verity.ctx;
    const { row, key } = await createApiKey(db, { name: 'shared', ratePerSecond: 1000, ratePerMinute: 100_000, now: new Date() });

    // Proof that the child answers from its cache: a limit changed behind the repository's back
    // (nothing announced) goes unseen there. Right after a change to keys nothing is cached for a
    // moment, hence the retries. Each round sets a limit of its own: a probe that reads the
    // database answers with it, one answered from the cache with what was cached (perhaps an
    // earlier round's limit, cached by a probe that came just as the quiet period ended).
    const deadline = Date.now() + 20_000;
    for (let round = 1; ; round++) {
      expect((await fromChild(key)).status).toBe(200);
      const unseen = 100_000 - round;
      await db.updateTable('api_keys').set({ rate_per_minute: unseen }).where('id', '=', row.id).execute();
      const probe = await fromChild(key);
      if (probe.status === 200 && probe.headers.get('x-ratelimit-limit') !== String(unseen)) break;
      if (Date.now() > deadline) throw new Error('the child never answered from its key cache');
      await new Promise((r) => setTimeout(r, 200));
    }

    // Listen where the child listens, to know when the notice has been delivered.
    const { url, prefix } = parseRedisUrl(pair.redisUrl);
    const listener = new Redis(url);
    try {
      await listener.subscribe(`${prefix}:bus:api-keys`);
      const delivered = new Promise<void>((resolve) => listener.once('message', () => resolve()));
      expect(await revokeApiKey(db, row.id, new Date())).toBe(true);
      await delivered;
    } finally {
      listener.disconnect();
    }
    expect((await fromChild(key)).status).toBe(401);
    expect((await pair.server.api('/api/users', { key })).status).toBe(401);
    // The child still accepts other keys.
    expect((await fromChild(pair.server.apiKey)).status).toBe(200);
  });
});
