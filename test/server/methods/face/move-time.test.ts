/** The account's time for each liveness move (methods/face/method.ts), edited with the dashboard's general settings. */
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../../../helpers/server.js';
import { type AdminClient, adminTestServer } from '../../http/admin/admin-client.js';
import { giveConsent, startedSession } from '../../session/fixtures.js';

let server: TestServer;
let admin: AdminClient;
adminTestServer((t) => ({ server, admin } = t));

const patch = (body: unknown) => admin.request('PATCH', '/admin/api/settings', body);

async function faceSession(methodId: number) {
  const { session } = await startedSession(server, [methodId]);
  await giveConsent(session);
  return session;
}

describe('the time for each liveness move', () => {
  it('is 30 s unless the account says otherwise; the liveness challenge carries it, the selfie has none', async () => {
    expect((await admin.request('GET', '/admin/api/settings')).body.data.liveness_move_seconds).toBe(30);
    expect((await (await faceSession(20)).faceChallenge('liveness')).move_ms).toBe(30_000);

    const res = await patch({ liveness_move_seconds: 12 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.liveness_move_seconds).toBe(12);
    const challenge = await (await faceSession(20)).faceChallenge('liveness');
    expect(challenge.move_ms).toBe(12_000);
    // Every step still fits in the challenge's life (two minutes).
    expect(Date.parse(challenge.expires_at) - server.clock.now().getTime()).toBe(2 * 60 * 1000);
    expect(challenge.steps.length * 12_000).toBeLessThanOrEqual(2 * 60 * 1000);
    expect((await (await faceSession(22)).faceChallenge('selfie')).move_ms).toBeUndefined();
  });

  it('refuses less than 10 s or more than the 30 s the challenge has room for, and saves nothing of the request', async () => {
    for (const value of [5, 31, 12.5]) {
      const res = await patch({ liveness_move_seconds: value, account_name: 'Not saved' });
      expect(res.status).toBe(422);
      expect(res.body.error_type).toBe('api_validation_error');
      expect(Object.keys(res.body.errors)).toEqual(['liveness_move_seconds']);
    }
    const settings = (await admin.request('GET', '/admin/api/settings')).body.data;
    expect(settings.liveness_move_seconds).toBe(30);
    expect(settings.account_name).toBe('Verity');
  });
});
