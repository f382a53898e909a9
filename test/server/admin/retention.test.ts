import { describe, expect, it } from 'vitest';
import { applyRetention } from '../../../server/admin/retention.js';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { sdb } from '../../../server/session/tables.js';
import type { TestServer } from '../../helpers/server.js';
import { type AdminClient, adminTestServer } from '../http/admin/admin-client.js';

let server: TestServer;
let clock: ManualClock;
let admin: AdminClient;
adminTestServer((t) => ({ server, clock, admin } = t));

async function upload(userId: number, id: string): Promise<void> {
  await server.verity.ctx.blobs.put(`users/${userId}/${id}.jpg`, Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg');
  await sdb(server.verity.ctx.db)
    .insertInto('session_uploads')
    .values({
      id,
      user_id: userId,
      method_key: 'selfie',
      document_type: null,
      side: null,
      challenge_id: null,
      step_index: null,
      step: null,
      blob_key: `users/${userId}/${id}.jpg`,
      media_type: 'image/jpeg',
      size: 3,
      meta: '{}',
      created_at: clock.now().toISOString(),
    })
    .execute();
}

describe('dashboard retention periods', () => {
  it('keeps images without a period; deletes images older than the period, blob and record', async () => {
    const user = await admin.request('POST', '/admin/api/users', { email: 'r@example.com' });
    const id = Number(user.body.data.id);
    await upload(id, 'old');
    clock.advance(20 * 86_400_000);
    await upload(id, 'new');
    clock.advance(15 * 86_400_000);
    expect(await applyRetention(server.verity.ctx)).toEqual({ images: 0, signups: 0 });
    // The admin session of 35 days ago has long ended.
    await admin.login();
    await admin.request('PATCH', '/admin/api/settings', { retention: { images_days: 30 } });
    expect((await applyRetention(server.verity.ctx)).images).toBe(1);
    const left = await sdb(server.verity.ctx.db).selectFrom('session_uploads').select('id').execute();
    expect(left.map((r) => r.id)).toEqual(['new']);
    expect(await server.verity.ctx.blobs.get(`users/${id}/old.jpg`)).toBeUndefined();
    expect(await server.verity.ctx.blobs.get(`users/${id}/new.jpg`)).toBeDefined();
  });

  it('deletes self-signups never confirmed after the period, but not before', async () => {
    await admin.request('PATCH', '/admin/api/settings', { signup: { enabled: true }, retention: { unconfirmed_signup_days: 3 } });
    const res = await fetch(`${server.url}/signup/api/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.config.baseUrl },
      body: JSON.stringify({ email: 'never@example.com' }),
    });
    expect(res.status).toBe(201);
    clock.advance(2 * 86_400_000);
    expect((await applyRetention(server.verity.ctx)).signups).toBe(0);
    clock.advance(2 * 86_400_000);
    expect((await applyRetention(server.verity.ctx)).signups).toBe(1);
    await admin.login();
    const users = await admin.request('GET', '/admin/api/users?search=never@example.com');
    expect(users.body.meta.total).toBe(0);
  });
});
