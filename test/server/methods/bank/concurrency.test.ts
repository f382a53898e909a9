import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { ApiError } from '../../../../src/api/session-client.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { signedInAdmin } from '../../http/admin/admin-client.js';
import { bankNeeds, bankUser, IBAN, pendingAmounts, wrongPair } from './fixtures.js';

// Runs on SQLite here and on PostgreSQL in the scale-out pass (vitest.scale.config.ts).
let server: TestServer;
let session: SessionClient;
let userId: number;

beforeEach(async () => {
  server = await startTestServer();
  ({ session, userId } = await bankUser(server));
  await signedInAdmin(server);
});

const submit = () => session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN });
afterEach(async () => {
  await server.close();
});

/** The status (200, or the error's) and error type of each of `calls`, run at once. */
async function atOnce(calls: (() => Promise<unknown>)[]): Promise<string[]> {
  const results = await Promise.allSettled(calls.map((c) => c()));
  return results.map((r) => {
    if (r.status === 'fulfilled') return '200';
    if (r.reason instanceof ApiError) return `${r.reason.status} ${r.reason.error_type}`;
    throw r.reason;
  });
}

async function statusEvents(): Promise<string[]> {
  const rows = await server.verity.ctx.db
    .selectFrom('events')
    .select('type')
    .where('user_id', '=', userId)
    .where('type', 'in', ['verification.completed', 'verification.rejected'])
    .execute();
  return rows.map((r) => r.type);
}

describe('bank: guesses at the same moment', () => {
  it('ten wrong guesses at once get exactly three tries and one rejection', async () => {
    await submit();
    const right = await pendingAmounts(server, userId);
    const outcomes = await atOnce(Array.from({ length: 10 }, () => () => session.verifyBankDeposits({ amounts: wrongPair(right) })));
    // Two wrong tries answered as such, the third rejects; the rest find no try left (429) or, when
    // they arrive after the rejection, a rejected method (409). Never a fourth comparison.
    expect(outcomes.filter((o) => o === '422 session_code_invalid')).toHaveLength(2);
    expect(outcomes.filter((o) => o === '429 session_attempts_exceeded').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((o) => o.startsWith('429') || o.startsWith('409'))).toHaveLength(8);
    const row = await server.verity.ctx.db
      .selectFrom('bank_accounts' as never)
      .select(['attempts' as never])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 3 });
    expect(await bankNeeds(session)).toMatchObject({ status: 'rejected', attempts_left: 0 });
    expect(await statusEvents()).toEqual(['verification.rejected']);
    // The right pair after that changes nothing.
    expect(await atOnce([() => session.verifyBankDeposits({ amounts: right })])).toEqual(['409 session_method_state_error']);
  });

  it('the right pair sent ten times at once completes the method once', async () => {
    await submit();
    const right = await pendingAmounts(server, userId);
    const outcomes = await atOnce(Array.from({ length: 10 }, () => () => session.verifyBankDeposits({ amounts: right })));
    expect(outcomes.filter((o) => o === '200')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== '200').every((o) => o.startsWith('409') || o.startsWith('429'))).toBe(true);
    expect(await bankNeeds(session)).toMatchObject({ status: 'complete' });
    expect(await statusEvents()).toEqual(['verification.completed']);
  });

  it('ten account entries at once send one pair of deposits', async () => {
    const outcomes = await atOnce(Array.from({ length: 10 }, () => submit));
    expect(outcomes.filter((o) => o === '200')).toHaveLength(1);
    expect(outcomes.filter((o) => o === '409 session_method_state_error')).toHaveLength(9);
    await server.verity.ctx.queue.whenIdle();
    const payouts = await server.verity.ctx.db
      .selectFrom('bank_payouts' as never)
      .selectAll()
      .execute();
    expect(payouts).toHaveLength(1);
    // The one pair paid is the pair whose hash is stored.
    const right = await pendingAmounts(server, userId);
    expect((await session.verifyBankDeposits({ amounts: right })).method.status).toBe('complete');
  });
});
