import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { items, startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock('2026-03-10T10:00:00Z');
  server = await startTestServer({ workers: false, clock });
});
afterEach(async () => {
  await server.close();
});

async function create(email: string, at: string, template = 'tmpl_contact'): Promise<number> {
  clock.set(at);
  const res = await server.api('/api/users', { body: { email, template_id: template, first_name: email.split('@')[0] } });
  return Number(res.body.id);
}

describe('GET /api/stats', () => {
  it('counts registrations per month of the current year, users per status and the latest registrations', async () => {
    await create('last-year@example.com', '2025-12-31T23:59:59Z');
    const jan1 = await create('jan1@example.com', '2026-01-01T00:00:00Z');
    await create('jan2@example.com', '2026-01-20T00:00:00Z');
    const mar = await create('mar@example.com', '2026-03-05T00:00:00Z');
    const banned = await create('banned@example.com', '2026-03-06T00:00:00Z');
    const verified = await create('verified@example.com', '2026-03-07T00:00:00Z', 'tmpl_email');
    clock.set('2026-03-10T10:00:00Z');
    // Started: one method processing → no longer "new".
    await server.api(`/api/users/${mar}/verifications`, { method: 'PATCH', body: { verification_id: 'email', status: 'processing' } });
    await server.api(`/api/users/${banned}`, { method: 'PATCH', body: { status: 'Banned' } });
    await server.api(`/api/users/${verified}/verifications`, { method: 'PATCH', body: { verification_id: 'email', status: 'complete' } });
    await server.api(`/api/users/${jan1}`, { method: 'PATCH', body: { status: 'Active' } });

    const res = await server.api('/api/stats');
    expect(res.status).toBe(200);
    expect(res.body.users_per_month).toEqual({
      January: 2,
      February: 0,
      March: 3,
      April: 0,
      May: 0,
      June: 0,
      July: 0,
      August: 0,
      September: 0,
      October: 0,
      November: 0,
      December: 0,
    });
    // new: Unconfirmed and nothing started (last-year, jan2); unconfirmed: started or Active, not verified/banned (jan1, mar).
    expect(res.body.users_per_status).toEqual({ total: 6, new: 2, banned: 1, unconfirmed: 2 });
    const latest = items(res.body.latest_registrations);
    expect(latest.map((u) => u.email)).toEqual([
      'verified@example.com',
      'banned@example.com',
      'mar@example.com',
      'jan2@example.com',
      'jan1@example.com',
      'last-year@example.com',
    ]);
    expect(latest[0]!.status).toBe('Verified');
  });
});
