/**
 * Different provider sign-ins at the same moment (both stores; the PostgreSQL pass is where they
 * interleave): two sign-ins of one step started at once, a user's social and payment sign-ins
 * finished at once, and two users proving the same provider account at once. Each ends as the
 * same requests one after the other would.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { startOidcProvider, type TestOidcProvider } from '../../../helpers/oidc-provider.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { latestCode } from '../../session/fixtures.js';
import { begin, browserFor, configureProvider, eventTypes, sessionFor, verificationRow } from './fixtures.js';

let idp: TestOidcProvider;
let server: TestServer;
let social: number;
let payment: number;

beforeAll(async () => {
  idp = await startOidcProvider('http://verity.test/oidc/callback');
  idp.accounts.set('alice', { email: 'alice@example.com', email_verified: true });
  idp.accounts.set('payer', { email: 'pay@shop.example', email_verified: true });
});
afterAll(async () => {
  await idp.close();
});
beforeEach(async () => {
  server = await startTestServer();
  social = await configureProvider(server, idp, 'social', 'Social');
  payment = await configureProvider(server, idp, 'payment', 'Pay');
});
afterEach(async () => {
  await server.close();
});

/** Signs in at the provider for a started sign-in; answers the browser and the callback URL, not yet visited. */
async function atProvider(beginUrl: string, account: string): Promise<{ browser: ReturnType<typeof browserFor>; callback: string }> {
  const browser = browserFor(server);
  return { browser, callback: await browser.signInAtProvider(await begin(browser, beginUrl), account) };
}

async function confirmPaymentCode(session: SessionClient): Promise<void> {
  await session.sendPaymentCode('pay@shop.example');
  await session.verifyPaymentCode(await latestCode(server, 'pay@shop.example'));
}

async function pendingSignIns(userId: number): Promise<number> {
  const rows = await server.verity.ctx.db
    .withTables<{ oidc_logins: { user_id: number; finished_at: string | null } }>()
    .selectFrom('oidc_logins')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('finished_at', 'is', null)
    .execute();
  return rows.length;
}

describe('provider sign-ins at the same moment', () => {
  it.each(['social_account', 'payment_account'] as const)('two %s sign-ins started at once: only one can be opened, and it completes', async (key) => {
    const { session, id } = await sessionFor(server, [key === 'social_account' ? 9 : 4], 'alice@example.com');
    if (key === 'payment_account') await confirmPaymentCode(session);
    const provider = key === 'social_account' ? social : payment;
    const [a, b] = await Promise.all([session.startSignIn(key, provider), session.startSignIn(key, provider)]);
    // Only the newest can complete: the other ended when it started, as one after the other.
    expect(await pendingSignIns(id)).toBe(1);
    const opened = await Promise.all(
      [a.url, b.url].map(async (url) => {
        const browser = browserFor(server);
        return { browser, visit: await browser.get(url) };
      }),
    );
    expect(opened.map((o) => o.visit.status).sort()).toEqual([302, 410]);
    const { browser, visit } = opened.find((o) => o.visit.status === 302)!;
    expect((await browser.get(await browser.signInAtProvider(visit.location!, key === 'social_account' ? 'alice' : 'payer'))).status).toBe(200);
    expect((await verificationRow(server, id, key === 'social_account' ? 9 : 4)).status).toBe(2);
    expect((await eventTypes(server, id)).filter((t) => t === 'verification.completed')).toHaveLength(1);
  });

  it('a user’s social and payment sign-ins finished at once: both recorded, each with its event, one status change', async () => {
    const { session, id } = await sessionFor(server, [9, 4], 'alice@example.com');
    await confirmPaymentCode(session);
    const one = await atProvider((await session.startSignIn('social_account', social)).url, 'alice');
    const two = await atProvider((await session.startSignIn('payment_account', payment)).url, 'payer');
    const pages = await Promise.all([one.browser.get(one.callback), two.browser.get(two.callback)]);
    expect(pages.map((p) => p.status)).toEqual([200, 200]);
    expect((await verificationRow(server, id, 9)).status).toBe(2);
    expect((await verificationRow(server, id, 4)).status).toBe(2);
    const events = await eventTypes(server, id);
    expect(events.filter((t) => t === 'verification.completed')).toHaveLength(2);
    expect(events.filter((t) => t === 'user.status.changed')).toHaveLength(2); // Active on opening the link, then Verified
    expect((await server.api(`/api/users/${id}`)).body.data.status).toBe('Verified');
  });

  it('two users proving the same provider account at once: the later goes to review naming the earlier', async () => {
    const first = await sessionFor(server, [9], 'alice@example.com');
    const second = await sessionFor(server, [9], 'alice@example.com');
    const one = await atProvider((await first.session.startSignIn('social_account', social)).url, 'alice');
    const two = await atProvider((await second.session.startSignIn('social_account', social)).url, 'alice');
    await Promise.all([one.browser.get(one.callback), two.browser.get(two.callback)]);
    const rows = [await verificationRow(server, first.id, 9), await verificationRow(server, second.id, 9)];
    // Which one was first is the race's; exactly one is complete and the other names it.
    const later = rows.findIndex((r) => r.status === 4);
    expect(rows.map((r) => r.status).sort()).toEqual([2, 4]);
    const earlierId = later === 0 ? second.id : first.id;
    expect(rows[later]!.attributes).toMatchObject({ social_account_shared_with: [earlierId] });
    expect(rows[1 - later]!.attributes).toMatchObject({ social_account_shared_with: [] });
  });
});
