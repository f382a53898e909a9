import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '../../../server/admin/audit.js';
import { main } from '../../../server/main.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { bankUser, IBAN } from '../methods/bank/fixtures.js';

let server: TestServer;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startTestServer();
  env = { ...server.storeEnv, VERITY_SECRET: 'test-secret-'.padEnd(48, 'x'), VERITY_BASE_URL: 'http://verity.test' };
});
afterEach(async () => {
  await server.close();
});

async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
  return { code, out, err };
}

describe('verity bank-payouts', () => {
  it('lists the pending payouts with what to pay, marks one paid (audited), then lists none', async () => {
    const { session, userId } = await bankUser(server);
    await session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN });
    await server.verity.ctx.queue.whenIdle();

    const listed = await cli('bank-payouts', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).toHaveLength(1);
    const payout = JSON.parse(listed.out[0]!) as { id: number; user_id: number; pay: { iban: string; amounts: [string, string]; currency: string } };
    expect(payout).toMatchObject({ user_id: userId, pay: { iban: IBAN, currency: 'EUR' } });
    for (const a of payout.pay.amounts) expect(a).toMatch(/^0\.\d\d$/);

    expect((await cli('bank-payouts', 'paid', String(payout.id))).out).toEqual([`Marked payout #${payout.id} paid`]);
    const again = await cli('bank-payouts', 'paid', String(payout.id));
    expect(again.code).toBe(2);
    expect((await cli('bank-payouts', 'list')).out).toEqual(['No payouts to make.']);
    const all = await cli('bank-payouts', 'list', '--all');
    expect(JSON.parse(all.out[0]!)).toMatchObject({ status: 'paid', pay: null, paid_by: 'cli' });
    const audit = await listAudit(server.verity.ctx.db, { page: 1, perPage: 10, action: 'bank_payout.mark_paid' });
    expect(audit.data.map((a) => a.admin_email)).toEqual(['cli']);
    expect((await cli('bank-payouts', 'nonsense')).code).toBe(2);
  });
});
