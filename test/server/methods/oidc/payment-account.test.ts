import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MethodViewOf } from '../../../../src/api/contract.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { startOidcProvider, type TestOidcProvider } from '../../../helpers/oidc-provider.js';
import { ManualClock } from '../../../helpers/manual-clock.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { latestCode, outboxFor } from '../../session/fixtures.js';
import { begin, browserFor, configureProvider, eventTypes, failure, sessionFor, signInStepView, verificationRow } from './fixtures.js';

let idp: TestOidcProvider;
let server: TestServer;
let clock: ManualClock;

beforeAll(async () => {
  idp = await startOidcProvider('http://verity.test/oidc/callback');
  idp.accounts.set('payer', { email: 'pay@shop.example', email_verified: true });
  idp.accounts.set('other', { email: 'other@shop.example', email_verified: true });
});
afterAll(async () => {
  await idp.close();
});
beforeEach(async () => {
  clock = new ManualClock(new Date());
  server = await startTestServer({ clock });
});
afterEach(async () => {
  await server.close();
});

const paymentView = (session: SessionClient): Promise<MethodViewOf<'payment_account'>> => signInStepView(session, 'payment_account');
const verification = (id: number): ReturnType<typeof verificationRow> => verificationRow(server, id, 4);

describe('Payment Account: the payment e-mail by code', () => {
  it('sends a code to the payment account’s address (not the user’s), and a right code completes the step', async () => {
    const { session, id } = await sessionFor(server, [4], 'user@example.com');
    const sent = await session.sendPaymentCode('pay@shop.example');
    expect(sent.destination_masked).not.toContain('pay@shop.example');
    expect(await outboxFor(server, 'user@example.com')).toEqual([]);
    const code = await latestCode(server, 'pay@shop.example');
    const view = await paymentView(session);
    expect(view.needs).toMatchObject({ code_sent: true, email_verified: false, provider: null });

    const wrong = await failure(session.verifyPaymentCode(code === '000000' ? '111111' : '000000'));
    expect([wrong.error_type, wrong.details.attempts_left]).toEqual(['session_code_invalid', 4]);
    const done = await session.verifyPaymentCode(code);
    expect(done.method.status).toBe('complete');
    const v = await verification(id);
    expect(v.status).toBe(2);
    expect(v.attributes).toEqual({ payment_email: 'pay@shop.example', payment_email_verified: 1 });
    expect(await eventTypes(server, id)).toContain('verification.completed');
    // Single use.
    expect((await failure(session.verifyPaymentCode(code))).error_type).toBe('session_method_state_error');
  });

  it('binds a code to its address: after a resend to another address the first code proves nothing', async () => {
    const { session, id } = await sessionFor(server, [4], 'user@example.com');
    await session.sendPaymentCode('first@shop.example');
    const first = await latestCode(server, 'first@shop.example');
    expect((await failure(session.sendPaymentCode('second@shop.example'))).error_type).toBe('api_rate_limit_error');
    clock.advance(61_000);
    await session.sendPaymentCode('second@shop.example');
    const second = await latestCode(server, 'second@shop.example');
    if (first !== second) expect((await failure(session.verifyPaymentCode(first))).error_type).toBe('session_code_invalid');
    await session.verifyPaymentCode(second);
    expect((await verification(id)).attributes.payment_email).toBe('second@shop.example');
  });

  it('refuses an address that is not one, an expired code, and the sixth guess', async () => {
    const { session } = await sessionFor(server, [4], 'user@example.com');
    expect((await failure(session.sendPaymentCode('not-an-address'))).error_type).toBe('api_validation_error');
    expect((await failure(session.sendPaymentCode(`${'a'.repeat(250)}@x.example`))).error_type).toBe('api_validation_error');
    await session.sendPaymentCode('pay@shop.example');
    const code = await latestCode(server, 'pay@shop.example');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await failure(session.verifyPaymentCode(wrong));
    expect((await failure(session.verifyPaymentCode(code))).error_type).toBe('session_attempts_exceeded');
    clock.advance(61_000);
    await session.sendPaymentCode('pay@shop.example');
    const fresh = await latestCode(server, 'pay@shop.example');
    clock.advance(11 * 60_000);
    expect((await failure(session.verifyPaymentCode(fresh))).error_type).toBe('session_code_expired');
  });
});

describe('Payment Account with a payment provider: code, then sign-in', () => {
  let providerId: number;
  beforeEach(async () => {
    providerId = await configureProvider(server, idp, 'payment', 'PayProvider');
  });

  async function confirmCode(session: SessionClient, email = 'pay@shop.example'): Promise<void> {
    await session.sendPaymentCode(email);
    await session.verifyPaymentCode(await latestCode(server, email));
  }

  it('is one part of two after the code (in-process), and completes when the provider vouches for the same address', async () => {
    const { session, id } = await sessionFor(server, [4], 'user@example.com');
    expect((await failure(session.startSignIn('payment_account', providerId))).error_type).toBe('session_method_state_error');
    await confirmCode(session);
    expect((await verification(id)).status).toBe(1);
    expect(await eventTypes(server, id)).toContain('verification.in-process');
    const view = await paymentView(session);
    expect(view.status).toBe('assigned');
    expect(view.needs).toMatchObject({ email_verified: true, provider: { id: providerId, name: 'PayProvider' }, sign_in: 'none' });
    expect((await session.session()).state).toBe('in_progress');

    const browser = browserFor(server);
    await browser.get(await browser.signInAtProvider(await begin(browser, (await session.startSignIn('payment_account', providerId)).url), 'payer'));
    const v = await verification(id);
    expect(v.status).toBe(2);
    expect(v.attributes).toMatchObject({
      payment_email: 'pay@shop.example',
      payment_email_verified: 1,
      payment_provider: 'PayProvider',
      payment_provider_issuer: idp.issuer,
      payment_provider_subject: 'payer',
      payment_provider_email_matches: 1,
    });
    expect((await session.session()).state).toBe('ready_to_complete');
  });

  it('a decided step an operator puts back to processing is not open to a second sign-in: the result is kept', async () => {
    const { session, id } = await sessionFor(server, [4], 'user@example.com');
    await confirmCode(session);
    const first = browserFor(server);
    await first.get(await first.signInAtProvider(await begin(first, (await session.startSignIn('payment_account', providerId)).url), 'other'));
    expect((await verification(id)).status).toBe(4);
    clock.advance(60_000);
    const moved = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'payment_account', status: 'processing' } });
    expect(moved.status).toBe(200);
    // Not the processing the code left (waiting for the sign-in): the user sees it processing.
    expect((await paymentView(session)).status).toBe('processing');
    expect((await failure(session.startSignIn('payment_account', providerId))).error_type).toBe('session_method_state_error');
    const v = await verification(id);
    expect(v.status).toBe(1);
    expect(v.attributes).toMatchObject({ payment_provider_subject: 'other', payment_provider_email: 'other@shop.example' });
  });

  it('goes to review when the provider account has another address', async () => {
    const { session, id } = await sessionFor(server, [4], 'user@example.com');
    await confirmCode(session);
    const browser = browserFor(server);
    await browser.get(await browser.signInAtProvider(await begin(browser, (await session.startSignIn('payment_account', providerId)).url), 'other'));
    const v = await verification(id);
    expect(v.status).toBe(4);
    expect(v.attributes).toMatchObject({ payment_provider_email: 'other@shop.example', payment_provider_email_matches: 0 });
  });

  it('does not take a social provider for the payment sign-in', async () => {
    const social = await configureProvider(server, idp, 'social', 'Social');
    const { session } = await sessionFor(server, [4], 'user@example.com');
    await confirmCode(session);
    expect((await failure(session.startSignIn('payment_account', social))).error_type).toBe('api_validation_error');
  });

  it('a retry after review starts the step over (code and sign-in)', async () => {
    const { session, id } = await sessionFor(server, [4], 'user@example.com');
    await confirmCode(session);
    const browser = browserFor(server);
    await browser.get(await browser.signInAtProvider(await begin(browser, (await session.startSignIn('payment_account', providerId)).url), 'other'));
    clock.advance(60_000);
    const reset = await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 'payment_account', status: 'reset' } });
    expect(reset.status).toBe(200);
    const retried = await session.retryMethod('payment_account');
    expect(retried.method.key === 'payment_account' && retried.method.needs).toMatchObject({ email_verified: false, sign_in: 'none' });
  });
});
