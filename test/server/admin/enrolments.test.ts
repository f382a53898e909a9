/**
 * Issue 21: an operator removes what a user enrolled (the authenticator app of Two-Step, the
 * passkeys of Biometric ID) when the device was lost; a reset alone keeps them. The removal is
 * audited with its reason, and the next time the method is assigned the user enrols anew.
 */
import { type TOTP, URI } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PasskeyVerifyRequest } from '../../../src/api/contract.js';
import type { SessionClient } from '../../../src/api/session-client.js';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { startTestServer, type Json, type TestServer } from '../../helpers/server.js';
import { AdminClient, signedInAdmin } from '../http/admin/admin-client.js';
import { SoftwareAuthenticator } from '../methods/biometric_id/software-authenticator.js';
import { client, createTemplate, createUser, local } from '../session/fixtures.js';

let server: TestServer;
let admin: AdminClient;
let session: SessionClient;
let userId: number;
let clock: ManualClock;

beforeEach(async () => {
  server = await startTestServer();
  clock = server.clock as ManualClock;
  clock.set('2026-06-15T12:00:15.000Z');
  const template = await createTemplate(server, 'tmpl_factors', [10, 13]);
  const created = await createUser(server, { email: 'lost.phone@example.com', template_id: template });
  userId = created.id;
  session = client(server);
  await session.start(local(server, created.link));
  admin = await signedInAdmin(server);
});
afterEach(async () => {
  await server.close();
});

async function enrolBoth(): Promise<void> {
  const enrolment = await session.enrolTotp();
  const totp = URI.parse(enrolment.otpauth_uri) as TOTP;
  await session.verifyTwoStep({ channel: 'totp', code: totp.generate({ timestamp: clock.now().getTime() }) });
  const device = new SoftwareAuthenticator('http://verity.test');
  const { options } = await session.passkeyOptions();
  await session.verifyPasskey({ credential: device.create(options) } as unknown as PasskeyVerifyRequest);
}

async function enrolments(): Promise<Json[]> {
  const res = await admin.request('GET', `/admin/api/users/${userId}`);
  expect(res.status).toBe(200);
  return (res.body.data as Json).enrolments as unknown as Json[];
}

async function reset(methodId: number): Promise<void> {
  const res = await server.api(`/api/users/${userId}/verifications`, { method: 'PATCH', body: { verification_id: methodId, status: 'reset' } });
  expect(res.status, res.text).toBe(200);
}

async function needs(key: string): Promise<Record<string, unknown>> {
  const method = (await session.session()).methods.find((m) => m.key === key);
  return method!.needs as Record<string, unknown>;
}

describe('operator removal of a second factor and passkeys', () => {
  it('lists them on the user page; a reset keeps them; removal with a reason is audited and the user enrols anew', async () => {
    await enrolBoth();
    expect(await enrolments()).toEqual([
      { key: 'two_step', details: { method: 'totp', enabled_at: expect.any(String), phone_ending: null, recovery_codes_left: 10 } },
      {
        key: 'biometric_id',
        details: { rp_id: 'verity.test', passkeys: [expect.objectContaining({ device_type: 'singleDevice', backed_up: false })] },
      },
    ]);
    // A reset asks for proof again: the factor and the passkey stay, so the proof is by them.
    await reset(10);
    await reset(13);
    expect(await enrolments()).toHaveLength(2);
    expect(await needs('biometric_id')).toMatchObject({ ceremony: 'assert' });

    const removed = await admin.request('DELETE', `/admin/api/users/${userId}/enrolments/two_step`, { reason: 'Lost phone, confirmed by call' });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data).toEqual([expect.objectContaining({ key: 'biometric_id' })]);
    const passkey = await admin.request('DELETE', `/admin/api/users/${userId}/enrolments/biometric_id`, { reason: 'Device stolen' });
    expect(passkey.status).toBe(200);
    expect(await enrolments()).toEqual([]);

    // The customer's view: no second factor any more.
    const user = (await server.api(`/api/users/${userId}`)).body.data as Json;
    expect(user.two_factor_options).toBeNull();
    // The user enrols anew: a registration, and an authenticator set-up.
    expect(await needs('biometric_id')).toMatchObject({ ceremony: 'register' });
    const again = await session.enrolTotp();
    expect(again.secret).toMatch(/^[A-Z2-7]+$/);

    const audit = await admin.request('GET', '/admin/api/audit?action=user.enrolment_removed');
    const rows = JSON.stringify(audit.body);
    expect(rows).toContain('Lost phone, confirmed by call');
    expect(rows).toContain('Device stolen');
  });

  it('refuses without a reason, for a method that keeps nothing, and when nothing is enrolled; two removals at once remove once', async () => {
    await enrolBoth();
    const noReason = await admin.request('DELETE', `/admin/api/users/${userId}/enrolments/two_step`, { reason: '  ' });
    expect(noReason.status).toBe(422);
    expect(noReason.body).toMatchObject({ error_type: 'api_validation_error', errors: { reason: expect.any(Array) } });
    const email = await admin.request('DELETE', `/admin/api/users/${userId}/enrolments/email`, { reason: 'why not' });
    expect(email.status).toBe(422);
    // A dot-segment spelled encoded names no method: not found, in the spec's error shape.
    const unknown = await admin.request('DELETE', `/admin/api/users/${userId}/enrolments/%2e%2e`, { reason: 'why not' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toHaveProperty('error_type');
    const nobody = await admin.request('DELETE', `/admin/api/users/999999/enrolments/two_step`, { reason: 'why not' });
    expect(nobody.status).toBe(404);

    const both = await Promise.all([1, 2].map(() => admin.request('DELETE', `/admin/api/users/${userId}/enrolments/two_step`, { reason: 'twice' })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    // Without the admin session, nothing is removed.
    const anonymous = new AdminClient(server);
    const refused = await anonymous.request('DELETE', `/admin/api/users/${userId}/enrolments/biometric_id`, { reason: 'x' });
    expect(refused.status).toBe(401);
    expect(await enrolments()).toEqual([expect.objectContaining({ key: 'biometric_id' })]);
  });
});
