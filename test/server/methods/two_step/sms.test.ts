import { failure } from '../../session/fixtures.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSetting } from '../../../../server/store/repos/settings-repo.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import type { ManualClock } from '../../../helpers/manual-clock.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { signedInAdmin } from '../../http/admin/admin-client.js';
import { client, createTemplate, createUser, latestCode, local, outboxFor } from '../../session/fixtures.js';
import { rowsIn } from './fixtures.js';

let server: TestServer;
let session: SessionClient;
let userId: number;
const ownPhone = '+447400123456';
const twoFactorPhone = '+447911123456';

beforeEach(async () => {
  server = await startTestServer();
  const template = await createTemplate(server, 'tmpl_two_step_sms', [10]);
  const created = await createUser(server, { email: 'sms.two.step@example.com', phone: ownPhone, template_id: template });
  userId = created.id;
  session = client(server);
  await session.start(local(server, created.link));
});
afterEach(async () => {
  await server.close();
});

describe('two-step by SMS', () => {
  it('is refused unless the account allows it', async () => {
    const view = (await session.session()).methods.find((m) => m.key === 'two_step')!;
    expect(view.key === 'two_step' && view.needs.sms_allowed).toBe(false);
    const e = await failure(session.sendTwoStepSms(twoFactorPhone));
    expect(e.status).toBe(409);
    expect(e.error_type).toBe('session_method_state_error');
  });

  it('sends the code to the chosen phone through the SMS outbox and records two_factor_phone once confirmed', async () => {
    // Allowed the way an operator allows it: the dashboard's settings.
    const admin = await signedInAdmin(server);
    expect((await admin.request('PATCH', '/admin/api/settings', { two_step_sms_allowed: true })).status).toBe(200);
    expect((await admin.request('GET', '/admin/api/settings')).body.data.two_step_sms_allowed).toBe(true);
    const sent = await session.sendTwoStepSms('+44 7911 123456');
    expect(sent.destination_masked).toBe('+44 ••• ••• 456');
    const code = await latestCode(server, twoFactorPhone);
    expect(await outboxFor(server, ownPhone)).toHaveLength(0);
    expect((await server.api(`/api/users/${userId}`)).body.data.two_factor_phone).toBeNull();

    const done = await session.verifyTwoStep({ channel: 'sms', code });
    expect(done.method.status).toBe('complete');
    expect(done.recovery_codes).toEqual([]);
    const user = (await server.api(`/api/users/${userId}`)).body.data;
    expect(user.two_factor_phone).toBe(twoFactorPhone);
    expect(user.two_factor_country_code).toBe(44);
    expect(user.two_factor_options).toMatchObject({ method: 'sms' });
    const again = await failure(session.verifyTwoStep({ channel: 'sms', code }));
    expect(again.error_type).toBe('session_method_state_error');
  });

  it('refuses a landline and a malformed number with the spec validation error', async () => {
    await writeSetting(server.verity.ctx.db, 'two_step_sms_allowed', true);
    for (const phone of ['+442079460000', 'call me', '']) {
      const e = await failure(session.sendTwoStepSms(phone));
      expect(e.status).toBe(422);
      expect(e.error_type).toBe('api_validation_error');
      expect(e.errors.phone).toHaveLength(1);
    }
  });

  it('limits resends, refuses an expired code, and a second visit texts the phone already on', async () => {
    await writeSetting(server.verity.ctx.db, 'two_step_sms_allowed', true);
    const clock = server.clock as ManualClock;
    await session.sendTwoStepSms(twoFactorPhone);
    const early = await failure(session.sendTwoStepSms(twoFactorPhone));
    expect(early.status).toBe(429);
    expect(early.error_type).toBe('api_rate_limit_error');
    const first = await latestCode(server, twoFactorPhone);
    clock.advance(10 * 60 * 1000 + 1000);
    const expired = await failure(session.verifyTwoStep({ channel: 'sms', code: first }));
    expect(expired.status).toBe(410);
    await session.sendTwoStepSms(twoFactorPhone);
    const second = await latestCode(server, twoFactorPhone);
    expect((await session.verifyTwoStep({ channel: 'sms', code: second })).method.status).toBe('complete');

    await server.api(`/api/users/${userId}/verifications`, { method: 'PATCH', body: { verification_id: 10, status: 'reset' } });
    const view = (await session.session()).methods.find((m) => m.key === 'two_step')!;
    expect(view.needs).toMatchObject({ mode: 'prove', enabled_factor: 'sms' });
    clock.advance(61_000);
    // The number given now is ignored: a repeat proof goes to the phone already on.
    await session.sendTwoStepSms('+447911000000');
    const third = await latestCode(server, twoFactorPhone);
    const done = await session.verifyTwoStep({ channel: 'sms', code: third });
    expect(done.method.status).toBe('complete');
    const attrs = await server.verity.ctx.db.selectFrom('user_verifications').select('attributes').where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(JSON.parse(attrs.attributes)).toMatchObject({ two_factor_method: 'sms', proof: 'sms_code', two_factor_phone: twoFactorPhone });
  });

  it('deletes the pending phone and its code with the user', async () => {
    await writeSetting(server.verity.ctx.db, 'two_step_sms_allowed', true);
    await session.sendTwoStepSms(twoFactorPhone);
    await latestCode(server, twoFactorPhone);
    expect((await server.api(`/api/users/${userId}`, { method: 'DELETE' })).status).toBe(200);
    expect(await rowsIn(server, 'two_step_factors')).toBe(0);
    expect(await rowsIn(server, 'verification_codes')).toBe(0);
    expect(await outboxFor(server, twoFactorPhone)).toHaveLength(0);
  });
});
