import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../../../server/store/repos/api-keys-repo.js';
import { groupTransaction } from '../../../../server/store/sqlite/group-commit.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('group commit', () => {
  it('creates users sent at once as if each had a transaction of its own; a duplicate username fails alone', { timeout: 60_000 }, async () => {
    server = await startTestServer({ workers: false });
    const s = server;
    const distinct = Array.from({ length: 30 }, (_, i) =>
      s.api('/api/users', { method: 'POST', body: { email: `gc${i}@example.com`, first_name: `Group${i}` } }),
    );
    const clashing = Array.from({ length: 5 }, (_, i) =>
      s.api('/api/users', { method: 'POST', body: { email: `clash${i}@example.com`, username: 'same-name' } }),
    );
    const answers = await Promise.all([...distinct, ...clashing]);

    const created = answers.slice(0, 30);
    for (const res of created) expect(res.status).toBe(200);
    const ids = created.map((res) => Number(res.body.id));
    expect(new Set(ids).size).toBe(30);

    const clashStatuses = answers
      .slice(30)
      .map((res) => res.status)
      .sort();
    expect(clashStatuses).toEqual([200, 422, 422, 422, 422]);
    for (const res of answers.slice(30).filter((r) => r.status === 422)) {
      expect(res.body.error_type).toBe('api_validation_error');
      expect(res.body.errors).toEqual({ username: ['The username has already been taken.'] });
    }

    // Each stored user is whole: its row and its verifications.
    for (const [i, id] of ids.entries()) {
      const res = await s.api(`/api/users/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.email).toBe(`gc${i}@example.com`);
      expect(res.body.data.first_name).toBe(`Group${i}`);
    }
    const named = await s.api('/api/users?filter[search]=same-name');
    expect(named.body.meta.total).toBe(1);
  });

  it('rolls back only the piece that fails, after its writes, and commits the others', async () => {
    server = await startTestServer({ workers: false });
    const { db } = server.verity.ctx;
    const now = new Date();
    const results = await Promise.allSettled([
      groupTransaction(db, (trx) => createApiKey(trx, { name: 'gc-kept-1', now })),
      groupTransaction(db, async (trx) => {
        await createApiKey(trx, { name: 'gc-dropped', now });
        throw new Error('changed my mind');
      }),
      groupTransaction(db, (trx) => createApiKey(trx, { name: 'gc-kept-2', now })),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('changed my mind'));
    const names = (await db.selectFrom('api_keys').select('name').where('name', 'like', 'gc-%').orderBy('name').execute()).map((r) => r.name);
    expect(names).toEqual(['gc-kept-1', 'gc-kept-2']);
  });
});
