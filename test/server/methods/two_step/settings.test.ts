/** Whether codes may go by SMS (methods/two_step/settings.ts), edited with the dashboard's general settings, on both stores. */
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../../../helpers/server.js';
import { type AdminClient, adminTestServer } from '../../http/admin/admin-client.js';
import { failure, startedSession } from '../../session/fixtures.js';

let server: TestServer;
let admin: AdminClient;
adminTestServer((t) => ({ server, admin } = t));

const patch = (body: unknown) => admin.request('PATCH', '/admin/api/settings', body);

async function twoStepStep() {
  const { session } = await startedSession(server, [10]);
  const step = (await session.session()).methods[0]!;
  if (step.key !== 'two_step') throw new Error('no two-step step');
  return { session, step };
}

describe('codes by SMS in the dashboard', () => {
  it('saves the choice with the general settings, in the body order, and the two-step step offers SMS', async () => {
    expect((await twoStepStep()).step.needs.sms_allowed).toBe(false);
    const res = await patch({ allowed_countries: ['FR'], default_locale: 'fr', two_step_sms_allowed: true, account_name: 'Acme' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.two_step_sms_allowed).toBe(true);
    expect(Object.keys(res.body.data).slice(5, 10)).toEqual([
      'handoff_enabled',
      'two_step_sms_allowed',
      'bank_deposit_ttl_days',
      'default_locale',
      'allowed_countries',
    ]);
    expect((await admin.request('GET', '/admin/api/settings')).body).toEqual(res.body);
    const audit = await admin.request('GET', '/admin/api/audit?per_page=10');
    expect(audit.body.data[0]).toMatchObject({
      action: 'settings.update',
      target_type: 'settings',
      details: { fields: ['account_name', 'two_step_sms_allowed', 'default_locale', 'allowed_countries'] },
    });
    expect((await twoStepStep()).step.needs.sms_allowed).toBe(true);

    // Left out: kept; false: SMS refused again.
    expect((await patch({ account_name: 'Acme 2' })).body.data.two_step_sms_allowed).toBe(true);
    expect((await patch({ two_step_sms_allowed: false })).body.data.two_step_sms_allowed).toBe(false);
    const { session, step } = await twoStepStep();
    expect(step.needs.sms_allowed).toBe(false);
    expect((await failure(session.sendTwoStepSms('+447911123456'))).error_type).toBe('session_method_state_error');
  });

  it('refuses anything but a boolean, and saves nothing of the request', async () => {
    for (const value of ['yes', 1, null]) {
      const res = await patch({ two_step_sms_allowed: value, account_name: 'Not saved' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error_type: 'api_validation_error',
        error_message: 'The given data was invalid.',
        errors: { two_step_sms_allowed: [`Invalid input: expected boolean, received ${value === null ? 'null' : typeof value}`] },
      });
    }
    const settings = (await admin.request('GET', '/admin/api/settings')).body.data;
    expect(settings.two_step_sms_allowed).toBe(false);
    expect(settings.account_name).toBe('Verity');
  });
});
