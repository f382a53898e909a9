import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MethodViewOf } from '../../../../src/api/contract.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { startOidcProvider, type TestOidcProvider } from '../../../helpers/oidc-provider.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { begin, browserFor, configureProvider, eventTypes, failure, sessionFor, signInStepView, verificationRow } from './fixtures.js';

let idp: TestOidcProvider;
let server: TestServer;
let providerId: number;

beforeAll(async () => {
  idp = await startOidcProvider('http://verity.test/oidc/callback');
  idp.accounts.set('alice', { email: 'Alice@Example.com', email_verified: true });
  idp.accounts.set('bob', { email: 'bob@example.net', email_verified: true });
  idp.accounts.set('carol', { email: 'carol@example.com', email_verified: false });
});
afterAll(async () => {
  await idp.close();
});
beforeEach(async () => {
  server = await startTestServer();
  providerId = await configureProvider(server, idp, 'social');
});
afterEach(async () => {
  await server.close();
});

const socialView = (session: SessionClient): Promise<MethodViewOf<'social_account'>> => signInStepView(session, 'social_account');
const verification = (id: number): ReturnType<typeof verificationRow> => verificationRow(server, id, 9);

describe('Social Account (OpenID Connect sign-in against a real provider)', () => {
  it('completes when the provider vouches for the user’s own verified e-mail, and records what it proved', async () => {
    const { session, id } = await sessionFor(server, [9], 'alice@example.com');
    const view = await socialView(session);
    expect(view.needs.providers).toEqual([{ id: providerId, name: 'TestID' }]);
    expect(view.needs.sign_in).toBe('none');

    const { url } = await session.startSignIn('social_account', providerId);
    expect((await socialView(session)).needs.sign_in).toBe('pending');
    const browser = browserFor(server);
    const authorize = new URL(await begin(browser, url));
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    const back = await browser.signInAtProvider(authorize.toString(), 'alice');
    expect(back.startsWith('http://verity.test/oidc/callback?')).toBe(true);
    const page = await browser.get(back);
    expect(page.status).toBe(200);
    expect(page.text).toContain('You are signed in');

    const after = await socialView(session);
    expect(after.status).toBe('complete');
    expect(after.needs.sign_in).toBe('done');
    const v = await verification(id);
    expect(v.attributes).toMatchObject({
      social_provider: 'TestID',
      social_issuer: idp.issuer,
      social_subject: 'alice',
      social_email: 'Alice@Example.com',
      social_email_verified: 1,
      social_email_matches: 1,
    });
    const events = await eventTypes(server, id);
    expect(events.indexOf('verification.pending')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('verification.completed')).toBeGreaterThan(events.indexOf('verification.pending'));
    // The customer API shows it too.
    const user = await server.api(`/api/users/${id}`);
    const entry = (user.body.data as unknown as { verifications: { id: number; status: { value: number } }[] }).verifications.find((e) => e.id === 9);
    expect(entry?.status.value).toBe(2);
  });

  it('sends an e-mail mismatch, or an e-mail the provider has not verified, to review with the reason', async () => {
    const mismatch = await sessionFor(server, [9], 'alice@example.com');
    const b1 = browserFor(server);
    await b1.get(await b1.signInAtProvider(await begin(b1, (await mismatch.session.startSignIn('social_account', providerId)).url), 'bob'));
    const v1 = await verification(mismatch.id);
    expect(v1.status).toBe(4);
    expect(v1.attributes).toMatchObject({ social_email: 'bob@example.net', social_email_matches: 0, social_email_verified: 1 });
    expect(v1.remarks).toMatch(/another e-mail/);

    const unverified = await sessionFor(server, [9], 'carol@example.com');
    const b2 = browserFor(server);
    await b2.get(await b2.signInAtProvider(await begin(b2, (await unverified.session.startSignIn('social_account', providerId)).url), 'carol'));
    const v2 = await verification(unverified.id);
    expect(v2.status).toBe(4);
    expect(v2.attributes).toMatchObject({ social_email_verified: 0, social_email_matches: 1 });
    expect((await socialView(unverified.session)).status).toBe('complete_in_review');
  });

  it('refuses an ID token whose nonce is not the one it asked for, and changes nothing', async () => {
    const { session, id } = await sessionFor(server, [9], 'alice@example.com');
    const browser = browserFor(server);
    const authorize = new URL(await begin(browser, (await session.startSignIn('social_account', providerId)).url));
    // An attacker's request with another nonce: the provider mints the ID token for that nonce.
    authorize.searchParams.set('nonce', 'attacker-chosen-nonce-0123456789');
    const back = await browser.signInAtProvider(authorize.toString(), 'alice');
    const page = await browser.get(back);
    expect(page.text).toContain('could not be checked');
    expect((await socialView(session)).needs.sign_in).toBe('invalid_response');
    expect((await verification(id)).status).toBe(0);
  });

  it('refuses a replayed state: the second callback changes nothing', async () => {
    const { session, id } = await sessionFor(server, [9], 'alice@example.com');
    const browser = browserFor(server);
    const back = await browser.signInAtProvider(await begin(browser, (await session.startSignIn('social_account', providerId)).url), 'alice');
    // The same callback twice at once: one is served, the other finds the sign-in claimed.
    const [a, b] = await Promise.all([browser.get(back), browser.get(back)]);
    expect([a.status, b.status].sort()).toEqual([200, 410]);
    expect((await verification(id)).status).toBe(2);
    // And once more afterwards.
    const again = await browser.get(back);
    expect(again.status).toBe(410);
    expect(again.text).toContain('This sign-in is over');
  });

  it('treats the provider’s access_denied as a cancelled sign-in: the step stays to do and can start again', async () => {
    const { session, id } = await sessionFor(server, [9], 'alice@example.com');
    const browser = browserFor(server);
    const back = await browser.signInAtProvider(await begin(browser, (await session.startSignIn('social_account', providerId)).url), 'alice', { abort: true });
    expect(new URL(back).searchParams.get('error')).toBe('access_denied');
    const page = await browser.get(back);
    expect(page.text).toContain('Sign-in cancelled');
    const view = await socialView(session);
    expect(view.status).toBe('assigned');
    expect(view.needs.sign_in).toBe('cancelled');
    expect((await verification(id)).status).toBe(0);

    const retry = browserFor(server);
    await retry.get(await retry.signInAtProvider(await begin(retry, (await session.startSignIn('social_account', providerId)).url), 'alice'));
    expect((await verification(id)).status).toBe(2);
  });

  it('records another provider error as provider_error', async () => {
    const { session } = await sessionFor(server, [9], 'alice@example.com');
    const browser = browserFor(server);
    const authorize = new URL(await begin(browser, (await session.startSignIn('social_account', providerId)).url));
    authorize.searchParams.set('scope', 'openid email unknown_scope');
    authorize.searchParams.set('response_mode', 'query');
    authorize.searchParams.set('max_age', 'not-a-number');
    const back = await browser.follow(authorize.toString(), (next) => next.startsWith('http://verity.test/'));
    const error = new URL(back.location ?? '').searchParams.get('error');
    expect(error).toBe('invalid_request');
    const page = await browser.get(back.location ?? '');
    expect(page.text).toContain('did not work');
    expect((await socialView(session)).needs.sign_in).toBe('provider_error');
  });

  it('a sign-in the user cancelled in the step: its late callback changes nothing', async () => {
    const { session, id } = await sessionFor(server, [9], 'alice@example.com');
    const browser = browserFor(server);
    const back = await browser.signInAtProvider(await begin(browser, (await session.startSignIn('social_account', providerId)).url), 'alice');
    const cancelled = await session.cancelSignIn('social_account');
    expect(cancelled.method.key === 'social_account' && cancelled.method.needs.sign_in).toBe('cancelled');
    expect((await browser.get(back)).status).toBe(410);
    expect((await verification(id)).status).toBe(0);
  });

  it('binds the sign-in to the browser that opened it: a callback from another browser, or a second begin, is refused', async () => {
    const { session, id } = await sessionFor(server, [9], 'alice@example.com');
    const { url } = await session.startSignIn('social_account', providerId);
    const browser = browserFor(server);
    const authorize = await begin(browser, url);
    expect((await browserFor(server).get(url)).status).toBe(410);
    const back = await browser.signInAtProvider(authorize, 'alice');
    const stranger = await browserFor(server).get(back);
    expect(stranger.status).toBe(400);
    expect((await verification(id)).status).toBe(0);
    // The right browser still finishes it.
    expect((await browser.get(back)).status).toBe(200);
    expect((await verification(id)).status).toBe(2);
  });

  it('answers the spec error body for a wrong provider, a step not assigned, a done step and an unreachable provider', async () => {
    const { session } = await sessionFor(server, [9], 'alice@example.com');
    expect((await failure(session.startSignIn('social_account', providerId + 100))).error_type).toBe('api_validation_error');
    expect((await failure(session.startSignIn('payment_account', providerId))).error_type).toBe('session_method_not_assigned');
    const down = await configureProvider(server, { ...idp, issuer: 'http://127.0.0.1:9' }, 'social', 'Down');
    const unavailable = await failure(session.startSignIn('social_account', down));
    expect([unavailable.status, unavailable.error_type]).toEqual([503, 'session_sign_in_unavailable']);
    const browser = browserFor(server);
    await browser.get(await browser.signInAtProvider(await begin(browser, (await session.startSignIn('social_account', providerId)).url), 'alice'));
    expect((await failure(session.startSignIn('social_account', providerId))).error_type).toBe('session_method_state_error');
  });

  it('allows 10 sign-ins an hour per step, then answers 429 with the wait', async () => {
    const { session } = await sessionFor(server, [9], 'alice@example.com');
    for (let i = 0; i < 10; i++) await session.startSignIn('social_account', providerId);
    const limited = await failure(session.startSignIn('social_account', providerId));
    expect([limited.status, limited.error_type]).toEqual([429, 'api_rate_limit_error']);
    expect(limited.details.retry_after_seconds).toBeGreaterThan(0);
    expect((await socialView(session)).needs.sign_ins_left).toBe(0);
  });

  it('refuses begin and callback pages for unknown or missing tokens with a page, not a 500', async () => {
    const browser = browserFor(server);
    expect((await browser.get(`${server.url}/oidc/begin`)).status).toBe(400);
    expect((await browser.get(`${server.url}/oidc/begin?t=${'x'.repeat(43)}`)).status).toBe(400);
    expect((await browser.get(`${server.url}/oidc/callback?state=nope&code=x`)).status).toBe(400);
    expect((await browser.get(`${server.url}/oidc/callback`)).status).toBe(400);
    const huge = await browser.get(`${server.url}/oidc/callback?state=${'a'.repeat(10_000)}`);
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
  });

  it('sends a provider account already proven by another user to review, naming that user; the first stays complete', async () => {
    const signInAs = async (email: string, account: string) => {
      const who = await sessionFor(server, [9], email);
      const b = browserFor(server);
      await b.get(await b.signInAtProvider(await begin(b, (await who.session.startSignIn('social_account', providerId)).url), account));
      return who.id;
    };
    const first = await signInAs('alice@example.com', 'alice');
    expect((await verification(first)).status).toBe(2);
    expect((await verification(first)).attributes).toMatchObject({ social_account_shared_with: [] });
    // A second identity signing in with the same provider account (here even with the same e-mail).
    const second = await signInAs('alice@example.com', 'alice');
    const v = await verification(second);
    expect(v.status).toBe(4);
    expect(v.attributes).toMatchObject({ social_subject: 'alice', social_email_matches: 1, social_account_shared_with: [first] });
    expect(v.remarks).toBe(`The same provider account was proven by another user (${first}).`);
    // The customer's result (and the user page) says it as checks.
    const result = await server.api(`/api/users/${second}/verifications/social_account`);
    expect(result.status).toBe(200);
    expect((result.body as unknown as { checks: unknown[] }).checks).toEqual([
      { name: 'provider_sign_in', outcome: 'passed', reason: null, value: null },
      { name: 'provider_email_verified', outcome: 'passed', reason: null, value: null },
      { name: 'email_match', outcome: 'passed', reason: null, value: null },
      { name: 'account_unique', outcome: 'flagged', reason: `The same provider account was proven by other users: ${first}.`, value: 1 },
    ]);
    expect((await verification(first)).status).toBe(2);
    // Another account is not flagged.
    const third = await signInAs('bob@example.net', 'bob');
    expect((await verification(third)).status).toBe(2);
    // A deleted user's account no longer counts.
    expect((await server.api(`/api/users/${first}`, { method: 'DELETE' })).status).toBe(200);
    expect((await server.api(`/api/users/${second}`, { method: 'DELETE' })).status).toBe(200);
    const fourth = await signInAs('alice@example.com', 'alice');
    expect((await verification(fourth)).status).toBe(2);
  });

  it('deleting the user deletes its sign-ins', async () => {
    const { session, id } = await sessionFor(server, [9], 'alice@example.com');
    await session.startSignIn('social_account', providerId);
    expect((await server.api(`/api/users/${id}`, { method: 'DELETE' })).status).toBe(200);
    const rows = await server.verity.ctx.db
      .withTables<{ oidc_logins: { user_id: number } }>()
      .selectFrom('oidc_logins')
      .select('user_id')
      .where('user_id', '=', id)
      .execute();
    expect(rows).toEqual([]);
  });
});
