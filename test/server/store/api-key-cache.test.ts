import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../../server/store/repos/api-keys-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A key the server now answers from its cache. Proven, not assumed: a limit changed behind the
 * repository's back (which announces nothing) goes unseen while the key is cached. Right after any
 * change to keys nothing is cached for a moment, so this waits that out.
 */
async function cachedKey(s: TestServer): Promise<{ id: number; key: string }> {
  const { db } = s.verity.ctx;
  const { row, key } = await createApiKey(db, { name: 'cached', ratePerSecond: 1000, ratePerMinute: 100_000, now: new Date() });
  // Generous: on a loaded machine one round can take seconds (a run once missed a 10 s deadline).
  const deadline = Date.now() + 30_000;
  for (let round = 1; ; round++) {
    expect((await s.api('/api/users', { key })).status).toBe(200);
    // A limit of this round's own: a probe that reads the database answers with it. A probe
    // answered from the cache answers with what was cached, which may be an earlier round's
    // limit (a probe that came just as the quiet period ended cached that), so only "not this
    // round's" proves the cache.
    const unseen = 100_000 - round;
    await db.updateTable('api_keys').set({ rate_per_minute: unseen }).where('id', '=', row.id).execute();
    const probe = await s.api('/api/users', { key });
    if (probe.status === 200 && probe.headers.get('x-ratelimit-limit') !== String(unseen)) return { id: row.id, key };
    if (Date.now() > deadline) {
      // Says what the last probe got, so a failure can be told apart from a slow machine.
      const seen = `status ${probe.status}, x-ratelimit-limit ${String(probe.headers.get('x-ratelimit-limit'))}`;
      throw new Error(`the key never came from the cache in ${round} rounds (last probe: ${seen})`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('API key cache', () => {
  it('refuses a key at once once this process revokes it', { timeout: 60_000 }, async () => {
    server = await startTestServer({ workers: false });
    const { id, key } = await cachedKey(server);
    await revokeApiKey(server.verity.ctx.db, id, new Date());
    const res = await server.api('/api/users', { key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error_type: 'api_auth_error', error_message: 'Unauthenticated.' });
  });

  it('refuses a key at once once another process revokes it (the CLI on the same store)', { timeout: 120_000 }, async () => {
    server = await startTestServer({ workers: false });
    const { id, key } = await cachedKey(server);
    // A separate OS process: on SQLite it writes the file itself (the server notices through
    // data_version); on the scale switch it announces the revocation over Redis.
    const env = { ...process.env, ...server.storeEnv, VERITY_SECRET: server.config.secret, VERITY_BASE_URL: server.config.baseUrl, VERITY_LOG_LEVEL: 'error' };
    await run(process.execPath, [join(ROOT, 'bin/verity.mjs'), 'keys', 'revoke', String(id)], { env, cwd: ROOT });
    expect((await server.api('/api/users', { key })).status).toBe(401);
    // Other keys are unaffected.
    expect((await server.api('/api/users')).status).toBe(200);
  });

  it('accepts a key created after an unknown key was tried (unknown keys are not cached)', async () => {
    server = await startTestServer({ workers: false });
    expect((await server.api('/api/users', { key: 'vk_live_' + 'y'.repeat(43) })).status).toBe(401);
    const { key } = await createApiKey(server.verity.ctx.db, { name: 'late', now: new Date() });
    expect((await server.api('/api/users', { key })).status).toBe(200);
  });

  it('uses the key limits as they are when the key is cached', async () => {
    server = await startTestServer({ workers: false });
    const { key } = await createApiKey(server.verity.ctx.db, { name: 'limited', ratePerSecond: 1000, ratePerMinute: 3, now: new Date() });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await server.api('/api/users', { key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
