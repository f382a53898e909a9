import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '../../../../server/admin/audit.js';
import { outboxDir } from '../../../../server/notify/outbox.js';
import { writeSetting } from '../../../../server/store/repos/settings-repo.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import type { ManualClock } from '../../../helpers/manual-clock.js';
import { items, startTestServer, type TestServer } from '../../../helpers/server.js';
import { signedInAdmin, type AdminClient } from '../../http/admin/admin-client.js';
import { client, failure, local } from '../../session/fixtures.js';
import { bankNeeds, bankUser, IBAN, IBAN_TYPED, pendingAmounts, wrongPair } from './fixtures.js';

let server: TestServer;
let session: SessionClient;
let userId: number;
let link: string;
let admin: AdminClient;
let clock: ManualClock;

beforeEach(async () => {
  server = await startTestServer();
  clock = server.clock as ManualClock;
  // Deposits take days to arrive: the link must outlive them (the account's link lifetime).
  await writeSetting(server.verity.ctx.db, 'link_lifetime_hours', 720);
  ({ session, userId, link } = await bankUser(server));
  admin = await signedInAdmin(server);
});
afterEach(async () => {
  await server.close();
});

const DAY = 24 * 60 * 60 * 1000;

/** Days later, the user opens the same link again: a new browser session. */
async function comeBack(days: number): Promise<void> {
  clock.advance(days * DAY);
  session = client(server);
  await session.start(local(server, link));
}

async function attributes(): Promise<Record<string, unknown>> {
  const res = await server.api(`/api/users/${userId}/verifications/bank`);
  return res.body.attributes as unknown as Record<string, unknown>;
}

async function eventTypes(): Promise<string[]> {
  const rows = await server.verity.ctx.db.selectFrom('events').select('type').where('user_id', '=', userId).orderBy('occurred_at').orderBy('id').execute();
  return rows.map((r) => r.type);
}

/** Everything the database holds for the method, as text. */
async function dbText(): Promise<string> {
  const db = server.verity.ctx.db;
  const tables = ['bank_accounts', 'bank_payouts', 'jobs', 'method_state', 'user_verifications', 'events', 'audit_log'];
  const out: unknown[] = [];
  for (const t of tables)
    out.push(
      await db
        .selectFrom(t as never)
        .selectAll()
        .execute()
        .catch(() => []),
    );
  return JSON.stringify(out);
}

describe('bank: micro-deposits', () => {
  it('sends two deposits through the payout queue, keeps only hashes and the last four, completes with the right amounts in either order', async () => {
    expect(await bankNeeds(session)).toMatchObject({ stage: 'account', account: null, attempts_left: 3, new_deposits_left: 2 });
    const sent = await session.submitBankAccount({ kind: 'iban', holder_name: 'jane  DOE', iban: IBAN_TYPED });
    expect(sent.method.status).toBe('assigned');
    const needs = await bankNeeds(session);
    expect(needs).toMatchObject({ stage: 'amounts', account: { kind: 'iban', country: 'DE', last4: '3000', currency: 'EUR' }, attempts_left: 3 });
    expect(new Date(needs.expires_at!).getTime() - new Date(needs.sent_at!).getTime()).toBe(7 * DAY);

    const [a, b] = await pendingAmounts(server, userId);
    expect(a).not.toBe(b);
    for (const c of [a, b]) expect(c >= 1 && c <= 99).toBe(true);
    // Neither the amounts nor the full account number are in the database in clear.
    const text = await dbText();
    expect(text).not.toContain(IBAN);
    expect(text).not.toContain('0532013000');
    expect(text).not.toMatch(new RegExp(`0\\.${String(a).padStart(2, '0')}\\b`));
    // The outbox notice tells the operator a payout waits, without amounts or account number.
    const names = await readdir(outboxDir(server.config.dataDir));
    expect(names).toHaveLength(1);
    const notice = await readFile(join(outboxDir(server.config.dataDir), names[0]!), 'utf8');
    expect(notice).toContain('ending 3000');
    expect(notice).not.toContain('0532013000');
    // Showing the instruction to an admin is audited.
    expect((await listAudit(server.verity.ctx.db, { page: 1, perPage: 10, action: 'bank_payout.view' })).total).toBe(1);

    const done = await session.verifyBankDeposits({ amounts: [b, a] });
    expect(done.method.status).toBe('complete');
    expect(await attributes()).toMatchObject({
      bank_country: 'DE',
      account_type: 'iban',
      account_last4: '3000',
      currency: 'EUR',
      account_holder_name_match: 'full',
      account_holder_checked_by: 'entered_name',
      payout_provider: 'manual',
      deposit_rounds: 1,
      deposits_confirmed_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(await eventTypes()).toEqual(expect.arrayContaining(['verification.pending', 'verification.completed']));

    // Replay: the same right amounts again change nothing.
    const replay = await failure(session.verifyBankDeposits({ amounts: [a, b] }));
    expect(replay.status).toBe(409);
    expect(replay.error_type).toBe('session_method_state_error');

    // The operator marks it paid: audited, and the instruction is forgotten.
    const [payout] = items((await admin.request('GET', '/admin/api/bank-payouts')).body.data);
    expect((await admin.request('POST', `/admin/api/bank-payouts/${String(payout!.id)}/paid`)).status).toBe(200);
    expect((await admin.request('POST', `/admin/api/bank-payouts/${String(payout!.id)}/paid`)).status).toBe(404);
    const listed = (await admin.request('GET', '/admin/api/bank-payouts')).body;
    const [paid] = items(listed.data);
    expect(listed.providers).toEqual({ payout: 'manual', payout_available: ['manual'], open_banking: null });
    expect(paid).toMatchObject({ status: 'paid', pay: null, last4: '3000', paid_by: 'root@example.com' });
    const stored = await server.verity.ctx.db
      .selectFrom('bank_payouts' as never)
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ sealed_instruction: null, status: 'paid' });
    const audit = await listAudit(server.verity.ctx.db, { page: 1, perPage: 10, action: 'bank_payout.mark_paid' });
    expect(audit.data.map((a) => [a.admin_email, a.target_id])).toEqual([['root@example.com', String(payout!.id)]]);
  });

  it('takes a US account (ABA routing check digit) and pays in USD; a holder who is not the user goes to review', async () => {
    const sent = await session.submitBankAccount({ kind: 'us', holder_name: 'Robert Smith', routing_number: '021000021', account_number: '123456789' });
    expect(sent.method.status).toBe('assigned');
    expect(await bankNeeds(session)).toMatchObject({ stage: 'amounts', account: { kind: 'us', country: 'US', last4: '6789', currency: 'USD' } });
    const res = await admin.request('GET', '/admin/api/bank-payouts');
    await server.verity.ctx.queue.whenIdle();
    const [payout] = items((await admin.request('GET', '/admin/api/bank-payouts')).body.data);
    expect(res.status).toBe(200);
    expect(payout?.pay).toMatchObject({ currency: 'USD', routing_number: '021000021', account_number: '123456789', holder_name: 'Robert Smith' });
    const done = await session.verifyBankDeposits({ amounts: await pendingAmounts(server, userId) });
    expect(done.method.status).toBe('complete_in_review');
    expect(await attributes()).toMatchObject({ account_holder_name_match: 'none', account_type: 'us', bank_country: 'US' });
  });

  it('refuses accounts that fail their checks with field errors, and oversized input', async () => {
    const badIban = await failure(session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: 'DE89 3704 0044 0532 0130 01' }));
    expect(badIban.status).toBe(422);
    expect(badIban.errors?.iban).toBeDefined();
    const badAba = await failure(session.submitBankAccount({ kind: 'us', holder_name: 'Jane Doe', routing_number: '021000022', account_number: '12' }));
    expect(badAba.status).toBe(422);
    expect(Object.keys(badAba.errors ?? {}).sort()).toEqual(['account_number', 'routing_number']);
    const huge = await failure(session.submitBankAccount({ kind: 'iban', holder_name: 'J'.repeat(140_000), iban: IBAN }));
    expect(huge.status).toBe(422);
    expect(huge.error_type).toBe('api_validation_error');
    const outOfRange = await failure(session.verifyBankDeposits({ amounts: [0, 100] }));
    expect(outOfRange.status).toBe(422);
    // Nothing was sent.
    expect(await bankNeeds(session)).toMatchObject({ stage: 'account' });
    await server.verity.ctx.queue.whenIdle();
    expect(items((await admin.request('GET', '/admin/api/bank-payouts')).body.data)).toHaveLength(0);
  });

  it('counts wrong amounts and rejects the method at the third; the right ones then change nothing', async () => {
    await session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN });
    const right = await pendingAmounts(server, userId);
    const again = await failure(session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN }));
    expect(again.status).toBe(409);
    for (const left of [2, 1]) {
      const e = await failure(session.verifyBankDeposits({ amounts: wrongPair(right) }));
      expect(e.status).toBe(422);
      expect(e.error_type).toBe('session_code_invalid');
      expect(e.details?.attempts_left).toBe(left);
    }
    const last = await failure(session.verifyBankDeposits({ amounts: wrongPair(right) }));
    expect(last.status).toBe(429);
    expect(last.error_type).toBe('session_attempts_exceeded');
    expect(await bankNeeds(session)).toMatchObject({ status: 'rejected', attempts_left: 0 });
    expect(await attributes()).toMatchObject({ rejected_for: 'attempts_exceeded', deposits_confirmed_at: null });
    const late = await failure(session.verifyBankDeposits({ amounts: right }));
    expect(late.status).toBe(409);
    expect((await session.session()).methods.find((m) => m.key === 'bank')?.can_retry).toBe(false);
  });

  it('lets the user leave and come back through the same link at the amount entry', async () => {
    await session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN });
    const right = await pendingAmounts(server, userId);
    await comeBack(2);
    expect(await bankNeeds(session)).toMatchObject({ stage: 'amounts', account: { last4: '3000' }, attempts_left: 3 });
    expect((await session.verifyBankDeposits({ amounts: right })).method.status).toBe('complete');
  });

  it('expires the deposits (configurable), then sends new ones on request, at most twice; old amounts no longer work', async () => {
    await writeSetting(server.verity.ctx.db, 'bank_deposit_ttl_days', 2);
    await session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN });
    const first = await pendingAmounts(server, userId);
    await comeBack(2.01);
    expect(await bankNeeds(session)).toMatchObject({ stage: 'expired', new_deposits_left: 2 });
    const expired = await failure(session.verifyBankDeposits({ amounts: first }));
    expect(expired.status).toBe(410);
    expect(expired.error_type).toBe('session_code_expired');

    await session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN });
    expect(await bankNeeds(session)).toMatchObject({ stage: 'amounts', new_deposits_left: 1, attempts_left: 3 });
    await comeBack(3);
    await session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN });
    expect(await bankNeeds(session)).toMatchObject({ stage: 'amounts', new_deposits_left: 0 });
    const third = await pendingAmounts(server, userId);
    await comeBack(3);
    const none = await failure(session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN }));
    expect(none.status).toBe(429);
    expect(await attributes()).toMatchObject({ rejected_for: 'no_new_deposits', deposit_rounds: 3 });
    expect((await failure(session.verifyBankDeposits({ amounts: third }))).status).toBe(409);
  });

  it('a deleted user leaves no account, payout or outbox notice behind', async () => {
    await session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN });
    await pendingAmounts(server, userId);
    expect(await readdir(outboxDir(server.config.dataDir))).toHaveLength(1);
    expect((await server.api(`/api/users/${userId}`, { method: 'DELETE' })).status).toBe(200);
    await server.verity.ctx.queue.whenIdle();
    const db = server.verity.ctx.db;
    expect(
      await db
        .selectFrom('bank_accounts' as never)
        .selectAll()
        .execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('bank_payouts' as never)
        .selectAll()
        .execute(),
    ).toEqual([]);
    expect((await readdir(outboxDir(server.config.dataDir))).filter((n) => n.endsWith('.json'))).toEqual([]);
  });
});
