import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { methodState } from '../../../server/session/state-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createUser } from './fixtures.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const tries = methodState<{ used: number }>('test_tries');
const LIMIT = 3;

/** What a method's use case does per request: a transaction that takes one try or refuses. */
async function takeTry(userId: number): Promise<'taken' | 'refused'> {
  const db = server.verity.ctx.db;
  try {
    return await db.transaction().execute((trx) =>
      tries.update(trx, userId, new Date(), (previous) => {
        const used = (previous?.used ?? 0) + 1;
        if (used > LIMIT) throw new Error('no tries left');
        return { next: { used }, result: 'taken' as const };
      }),
    );
  } catch (error) {
    if (error instanceof Error && error.message === 'no tries left') return 'refused';
    throw error;
  }
}

describe('method state updates', () => {
  it('requests at the same moment share a limit: of ten tries at once, three are taken', async () => {
    const { id } = await createUser(server, { email: 'tries@example.com' });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => takeTry(id)));
    expect(outcomes.filter((o) => o === 'taken')).toHaveLength(LIMIT);
    expect(await tries.read(server.verity.ctx.db, id)).toEqual({ used: LIMIT });
  });
});
