/** The allowed countries (methods/geolocation/settings.ts), edited with the dashboard's general settings, on both stores. */
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../../../helpers/server.js';
import { type AdminClient, adminTestServer } from '../../http/admin/admin-client.js';
import { failure, startedSession } from '../../session/fixtures.js';

let server: TestServer;
let admin: AdminClient;
adminTestServer((t) => ({ server, admin } = t));

const patch = (body: unknown) => admin.request('PATCH', '/admin/api/settings', body);

async function geolocationStep() {
  const { session } = await startedSession(server, [8]);
  const step = (await session.session()).methods[0]!;
  if (step.key !== 'geolocation') throw new Error('no geolocation step');
  return { session, step };
}

describe('allowed countries in the dashboard', () => {
  it('saves them with the general settings, shows them, and the geolocation step applies them', async () => {
    const res = await patch({ allowed_countries: ['FR', 'BE'], account_name: 'Acme' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.allowed_countries).toEqual(['FR', 'BE']);
    expect(res.body.data.account_name).toBe('Acme');
    expect((await admin.request('GET', '/admin/api/settings')).body).toEqual(res.body);
    const audit = await admin.request('GET', '/admin/api/audit?per_page=10');
    expect(audit.body.data[0]).toMatchObject({
      action: 'settings.update',
      target_type: 'settings',
      details: { fields: ['account_name', 'allowed_countries'] },
    });

    const { session, step } = await geolocationStep();
    expect(step.needs.allowed_countries).toEqual(['FR', 'BE']);
    const berlin = await failure(session.submitGeolocation({ latitude: 52.52, longitude: 13.405, accuracy: 30, timestamp: Date.now() }));
    expect(berlin.error_type).toBe('session_location_rejected');

    // Left out: kept; null: any place again.
    expect((await patch({ account_name: 'Acme 2' })).body.data.allowed_countries).toEqual(['FR', 'BE']);
    expect((await patch({ allowed_countries: null })).body.data.allowed_countries).toBeNull();
    expect((await geolocationStep()).step.needs.allowed_countries).toBeNull();
  });

  it('refuses codes that are not upper-case country or region codes, and saves nothing of the request', async () => {
    const res = await patch({ allowed_countries: ['de'], account_name: 'Not saved' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error_type: 'api_validation_error',
      error_message: 'The given data was invalid.',
      errors: { 'allowed_countries.0': ['Invalid string: must match pattern /^[A-Z0-9]{2,3}$|^[0-9]{3}$/'] },
    });
    expect((await patch({ allowed_countries: Array.from({ length: 301 }, () => 'FR') })).status).toBe(422);
    const settings = (await admin.request('GET', '/admin/api/settings')).body.data;
    expect(settings.allowed_countries).toBeNull();
    expect(settings.account_name).toBe('Verity');
  });
});
