import { failure } from '../../session/fixtures.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionClient } from '../../../../src/api/session-client.js';
import type { PasskeyVerifyRequest } from '../../../../src/api/contract.js';
import type { ManualClock } from '../../../helpers/manual-clock.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { client, createTemplate, createUser, local } from '../../session/fixtures.js';
import { SoftwareAuthenticator } from './software-authenticator.js';
import { writeSetting } from '../../../../server/store/repos/settings-repo.js';

// The test server's public URL is http://verity.test: the rp id is its host, its origin the only one accepted.
const ORIGIN = 'http://verity.test';

let server: TestServer;
let session: SessionClient;
let userId: number;
let clock: ManualClock;
let device: SoftwareAuthenticator;

beforeEach(async () => {
  server = await startTestServer();
  clock = server.clock as ManualClock;
  const template = await createTemplate(server, 'tmpl_passkey', [13]);
  const created = await createUser(server, { email: 'pass.key@example.com', first_name: 'Pia', template_id: template });
  userId = created.id;
  session = client(server);
  await session.start(local(server, created.link));
  device = new SoftwareAuthenticator(ORIGIN);
});
afterEach(async () => {
  await server.close();
});

const asBody = (credential: Record<string, unknown>) => ({ credential }) as unknown as PasskeyVerifyRequest;

async function view() {
  const m = (await session.session()).methods.find((x) => x.id === 13);
  if (m?.key !== 'biometric_id') throw new Error(`method 13 is ${m?.key}`);
  return m;
}

async function storedAttributes(): Promise<Record<string, unknown>> {
  const row = await server.verity.ctx.db
    .selectFrom('user_verifications')
    .select('attributes')
    .where('user_id', '=', userId)
    .where('method_id', '=', 13)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.attributes) as Record<string, unknown>;
}

async function eventTypes(): Promise<string[]> {
  const rows = await server.verity.ctx.db.selectFrom('events').select('type').where('user_id', '=', userId).orderBy('occurred_at').orderBy('id').execute();
  return rows.map((r) => r.type);
}

async function credentialsInDb(): Promise<Record<string, unknown>[]> {
  return server.verity.ctx.db
    .selectFrom('passkey_credentials' as never)
    .selectAll()
    .execute() as Promise<Record<string, unknown>[]>;
}

async function register(): Promise<void> {
  const { options } = await session.passkeyOptions();
  const done = await session.verifyPasskey(asBody(device.create(options)));
  expect(done.method.status).toBe('complete');
}

async function reassign(): Promise<void> {
  const res = await server.api(`/api/users/${userId}/verifications`, { method: 'PATCH', body: { verification_id: 'biometric_id', status: 'reset' } });
  expect(res.status).toBe(200);
}

describe('biometric_id: registration', () => {
  it('is a passkey step (not a selfie) and completes with a verified platform passkey, recording its attestation', async () => {
    const before = await view();
    expect(before.needs).toEqual({ ceremony: 'register', rp_id: 'verity.test', attempts_left: 5 });

    const { ceremony, options } = await session.passkeyOptions();
    expect(ceremony).toBe('register');
    expect(options).toMatchObject({
      rp: { id: 'verity.test' },
      user: { name: 'pass.key@example.com', displayName: 'Pia' },
      attestation: 'direct',
      authenticatorSelection: { authenticatorAttachment: 'platform', userVerification: 'required' },
    });
    // The user handle names no one.
    expect(JSON.stringify(options.user)).not.toContain(String(userId));

    const done = await session.verifyPasskey(asBody(device.create(options)));
    expect(done.method).toMatchObject({ key: 'biometric_id', status: 'complete' });
    const [credentialId] = [...device.credentials.keys()];
    expect(await storedAttributes()).toEqual({
      proof: 'passkey_registered',
      credential_id: credentialId,
      attestation_format: 'packed',
      aaguid: '5f1a2b3c-4d5e-6f70-8192-a3b4c5d6e7f8',
      attestation_root_checked: false,
      user_verified: true,
      device_type: 'singleDevice',
      backed_up: false,
      sign_count: 0,
      rp_id: 'verity.test',
      registered_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(await eventTypes()).toEqual(expect.arrayContaining(['verification.pending', 'verification.completed']));
    const user = (await server.api(`/api/users/${userId}`)).body.data as unknown as { verifications: unknown[] };
    expect(user.verifications).toEqual([{ id: 13, name: 'Biometric ID', status: { value: 2, friendly: 'Complete' } }]);
    // The customer's (and the dashboard's) verification result reads it as checks.
    const result = await server.api(`/api/users/${userId}/verifications/biometric_id`);
    expect(result.status).toBe(200);
    expect((result.body as unknown as { checks: unknown[] }).checks).toEqual([
      { name: 'passkey_signature', outcome: 'passed', reason: null, value: null },
      { name: 'user_verified', outcome: 'passed', reason: null, value: null },
      { name: 'attestation_root', outcome: 'not_run', reason: expect.stringContaining('not checked against a vendor root'), value: null },
    ]);
    // Only the public key is kept.
    const rows = await credentialsInDb();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: userId, credential_id: credentialId, rp_id: 'verity.test', counter: 0 });
    expect(Object.keys(rows[0]!).some((k) => /private|secret/i.test(k))).toBe(false);
  });

  it('refuses a passkey made without user verification, and changes nothing', async () => {
    const { options } = await session.passkeyOptions();
    const e = await failure(session.verifyPasskey(asBody(device.create(options, { uv: false }))));
    expect(e.status).toBe(422);
    expect(e.error_type).toBe('session_passkey_invalid');
    expect(e.details).toMatchObject({ attempts_left: 4 });
    expect((await view()).status).toBe('assigned');
    expect(await credentialsInDb()).toHaveLength(0);
  });

  it('refuses a response made for another origin', async () => {
    const { options } = await session.passkeyOptions();
    const e = await failure(session.verifyPasskey(asBody(device.create(options, { origin: 'https://evil.example' }))));
    expect(e.error_type).toBe('session_passkey_invalid');
    expect(await credentialsInDb()).toHaveLength(0);
  });

  it("accepts a ceremony made on a customer's page that embeds the flow (allowed_origins), listed in /.well-known/webauthn", async () => {
    const shop = 'https://shop.example';
    await writeSetting(server.verity.ctx.db, 'allowed_origins', [shop, 'https://other.example/path']);
    const known = await fetch(`${server.url}/.well-known/webauthn`);
    expect(known.status).toBe(200);
    expect(known.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await known.json()).toEqual({ origins: [ORIGIN, shop, 'https://other.example'] });
    const { options } = await session.passkeyOptions();
    expect(options).toMatchObject({ rp: { id: 'verity.test' } });
    const done = await session.verifyPasskey(asBody(device.create(options, { origin: shop })));
    expect(done.method.status).toBe('complete');
    await writeSetting(server.verity.ctx.db, 'allowed_origins', []);
    expect(await (await fetch(`${server.url}/.well-known/webauthn`)).json()).toEqual({ origins: [ORIGIN] });
  });

  it('uses a challenge once: an answer to a replaced challenge, or a replayed one, is refused', async () => {
    const first = await session.passkeyOptions();
    // Asking again replaces the first challenge: an answer to it does not verify, and uses up the pending one.
    const second = await session.passkeyOptions();
    const stale = await failure(session.verifyPasskey(asBody(device.create(first.options))));
    expect(stale.error_type).toBe('session_passkey_invalid');
    const after = await failure(session.verifyPasskey(asBody(device.create(second.options))));
    expect(after.status).toBe(410);
    expect(after.error_type).toBe('session_challenge_expired');
    expect((await view()).status).toBe('assigned');

    // A verified response, replayed once the method is open again, finds no challenge to answer.
    const { options } = await session.passkeyOptions();
    const body = asBody(device.create(options));
    expect((await session.verifyPasskey(body)).method.status).toBe('complete');
    await reassign();
    expect((await failure(session.verifyPasskey(body))).error_type).toBe('session_challenge_expired');
    // And against a fresh challenge it does not verify.
    await session.passkeyOptions();
    expect((await failure(session.verifyPasskey(body))).error_type).toBe('session_passkey_invalid');
    expect((await view()).status).toBe('reset');
  });

  it('passes the same response once when it is sent twice at once', async () => {
    const { options } = await session.passkeyOptions();
    const body = asBody(device.create(options));
    const results = await Promise.allSettled([0, 1, 2].map(() => session.verifyPasskey(body)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await credentialsInDb()).toHaveLength(1);
  });

  it('refuses an answer after the challenge expired', async () => {
    const { options } = await session.passkeyOptions();
    clock.advance(5 * 60_000 + 1);
    const e = await failure(session.verifyPasskey(asBody(device.create(options))));
    expect(e.error_type).toBe('session_challenge_expired');
  });

  it('refuses a challenge answered from another session of the same user', async () => {
    const { options } = await session.passkeyOptions();
    const link = (await server.api(`/api/users/${userId}/verify-url`, { body: { expiration_hours: 1 } })).body.full_url as unknown as string;
    const other = client(server);
    await other.start(local(server, link));
    const e = await failure(other.verifyPasskey(asBody(device.create(options))));
    expect(e.error_type).toBe('session_challenge_expired');
  });

  it('rejects the method after the 5th failed ceremony, and lets a registration start over', async () => {
    for (let i = 0; i < 4; i++) {
      const { options } = await session.passkeyOptions();
      expect((await failure(session.verifyPasskey(asBody(device.create(options, { uv: false }))))).error_type).toBe('session_passkey_invalid');
    }
    const { options } = await session.passkeyOptions();
    const last = await failure(session.verifyPasskey(asBody(device.create(options, { uv: false }))));
    expect(last.status).toBe(429);
    expect(last.error_type).toBe('session_attempts_exceeded');
    const rejected = await view();
    expect(rejected).toMatchObject({ status: 'rejected', can_retry: true });
    expect(await eventTypes()).toContain('verification.rejected');
    const result = await server.api(`/api/users/${userId}/verifications/biometric_id`);
    expect((result.body as unknown as { checks: { name: string; outcome: string }[] }).checks).toEqual([
      expect.objectContaining({ name: 'passkey_signature', outcome: 'failed' }),
    ]);
    expect((await failure(session.passkeyOptions())).status).toBe(409);

    await session.retryMethod('biometric_id');
    expect((await view()).needs.attempts_left).toBe(5);
    await register();
  });

  it('rejects a body 1000x larger than a real one without a 500', async () => {
    await session.passkeyOptions();
    const huge = 'A'.repeat(2_000_000);
    const e = await failure(session.verifyPasskey(asBody({ id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: huge } })));
    expect([413, 422]).toContain(e.status);
  });
});

describe('biometric_id: a second visit proves possession', () => {
  it('asks for an assertion by the registered passkey and completes with it', async () => {
    await register();
    await reassign();
    expect((await view()).needs.ceremony).toBe('assert');
    const { ceremony, options } = await session.passkeyOptions();
    expect(ceremony).toBe('assert');
    expect(options).toMatchObject({ rpId: 'verity.test', userVerification: 'required', allowCredentials: [{ id: [...device.credentials.keys()][0] }] });
    const done = await session.verifyPasskey(asBody(device.get(options)));
    expect(done.method.status).toBe('complete');
    expect(await storedAttributes()).toMatchObject({ proof: 'passkey_assertion', attestation_format: 'packed', user_verified: true, sign_count: 1 });
    const result = await server.api(`/api/users/${userId}/verifications/13`);
    expect((result.body as unknown as { checks: { name: string; outcome: string; value: number | null }[] }).checks).toContainEqual(
      expect.objectContaining({ name: 'sign_counter', outcome: 'passed', value: 1 }),
    );
  });

  it('refuses an assertion without user verification', async () => {
    await register();
    await reassign();
    const { options } = await session.passkeyOptions();
    const e = await failure(session.verifyPasskey(asBody(device.get(options, { uv: false }))));
    expect(e.error_type).toBe('session_passkey_invalid');
    expect((await view()).status).toBe('reset');
  });

  it('refuses an assertion whose counter did not move forward (a cloned authenticator)', async () => {
    await register();
    await reassign();
    let { options } = await session.passkeyOptions();
    await session.verifyPasskey(asBody(device.get(options, { counter: 7 })));
    await reassign();
    ({ options } = await session.passkeyOptions());
    const e = await failure(session.verifyPasskey(asBody(device.get(options, { counter: 7 }))));
    expect(e.error_type).toBe('session_passkey_invalid');
  });

  it('refuses an assertion by a passkey that is not registered to this user', async () => {
    await register();
    await reassign();
    const stranger = new SoftwareAuthenticator(ORIGIN);
    const { options: regOptions } = await session.passkeyOptions();
    // The stranger's own passkey for the same site, never registered here.
    stranger.create({ ...regOptions, rp: { id: 'verity.test' }, user: { id: 'c3RyYW5nZXI' } });
    const [strangerId] = [...stranger.credentials.keys()];
    const e = await failure(session.verifyPasskey(asBody(stranger.get({ ...regOptions, allowCredentials: [{ id: strangerId }] }))));
    expect(e.error_type).toBe('session_passkey_invalid');
  });
});

describe('biometric_id: deletion', () => {
  it('deletes the passkeys with the user', async () => {
    await register();
    expect(await credentialsInDb()).toHaveLength(1);
    expect((await server.api(`/api/users/${userId}`, { method: 'DELETE' })).status).toBe(200);
    expect(await credentialsInDb()).toHaveLength(0);
  });
});
