/** How long deposits stay enterable (methods/bank/settings.ts), edited with the dashboard's general settings, on both stores. */
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../../../helpers/server.js';
import { type AdminClient, adminTestServer } from '../../http/admin/admin-client.js';
import { bankNeeds, bankUser, IBAN } from './fixtures.js';

let server: TestServer;
let admin: AdminClient;
adminTestServer((t) => ({ server, admin } = t));

const patch = (body: unknown) => admin.request('PATCH', '/admin/api/settings', body);
const DAY = 24 * 60 * 60 * 1000;

describe('deposit lifetime in the dashboard', () => {
  it('saves the days with the general settings, in the body order, and new deposits expire after them', async () => {
    const res = await patch({ allowed_countries: null, bank_deposit_ttl_days: 3, handoff_enabled: false, two_step_sms_allowed: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.bank_deposit_ttl_days).toBe(3);
    expect((await admin.request('GET', '/admin/api/settings')).body).toEqual(res.body);
    const audit = await admin.request('GET', '/admin/api/audit?per_page=10');
    expect(audit.body.data[0]).toMatchObject({
      action: 'settings.update',
      target_type: 'settings',
      details: { fields: ['handoff_enabled', 'two_step_sms_allowed', 'bank_deposit_ttl_days', 'allowed_countries'] },
    });

    const { session } = await bankUser(server);
    await session.submitBankAccount({ kind: 'iban', holder_name: 'Jane Doe', iban: IBAN });
    const needs = await bankNeeds(session);
    expect(needs.stage).toBe('amounts');
    expect(Date.parse(needs.expires_at!) - server.clock.now().getTime()).toBe(3 * DAY);

    // Left out: kept.
    expect((await patch({ account_name: 'Acme' })).body.data.bank_deposit_ttl_days).toBe(3);
  });

  it('refuses anything but a whole number of days from 1 to 60, and saves nothing of the request', async () => {
    const refusals: [unknown, string][] = [
      [0, 'Too small: expected number to be >=1'],
      [61, 'Too big: expected number to be <=60'],
      [2.5, 'Invalid input: expected int, received number'],
      ['7', 'Invalid input: expected number, received string'],
      [null, 'Invalid input: expected number, received null'],
    ];
    for (const [value, message] of refusals) {
      const res = await patch({ bank_deposit_ttl_days: value, account_name: 'Not saved' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error_type: 'api_validation_error',
        error_message: 'The given data was invalid.',
        errors: { bank_deposit_ttl_days: [message] },
      });
    }
    // Several at once: each field's errors, in the body's order.
    const many = await patch({ default_locale: 'xx', bank_deposit_ttl_days: 0, two_step_sms_allowed: 'on', allowed_countries: ['fr'] });
    expect(Object.keys(many.body.errors)).toEqual(['two_step_sms_allowed', 'bank_deposit_ttl_days', 'default_locale', 'allowed_countries.0']);
    const settings = (await admin.request('GET', '/admin/api/settings')).body.data;
    expect(settings.bank_deposit_ttl_days).toBe(7);
    expect(settings.account_name).toBe('Verity');
  });
});
