import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { outboxDir, writeOutboxMessage } from '../../../server/notify/outbox.js';
import { items, type TestServer } from '../../helpers/server.js';
import { type AdminClient, adminTestServer } from '../http/admin/admin-client.js';

let server: TestServer;
let clock: ManualClock;
let admin: AdminClient;
adminTestServer((t) => ({ server, clock, admin } = t), { workers: false });

async function write(channel: 'email' | 'sms', n: number): Promise<void> {
  clock.advance(1000);
  await writeOutboxMessage(server.dataDir, {
    channel,
    to: channel === 'email' ? `person${n}@example.com` : `+1415555${String(n).padStart(4, '0')}`,
    subject: `Message ${n}`,
    text: `Text ${n}`,
    locale: 'en',
    created_at: clock.now().toISOString(),
  });
}

describe('dashboard outbox', () => {
  it('answers a page with the total count, by channel too, newest first', async () => {
    for (let i = 0; i < 13; i++) await write(i % 3 === 0 ? 'sms' : 'email', i);
    // A message written before file names carried the channel (and before messages recorded
    // their locale) still counts under its channel, and is listed.
    clock.advance(1000);
    const legacy = {
      id: '00aa11bb22cc33dd',
      channel: 'sms',
      to: '+14155559999',
      subject: 'Legacy',
      text: 'Old name',
      created_at: clock.now().toISOString(),
    };
    await writeFile(
      join(outboxDir(server.dataDir), `${legacy.created_at.replace(/[:.]/g, '-')}-00000000000000000001-${legacy.id}.json`),
      JSON.stringify(legacy),
    );

    const first = await admin.request('GET', '/admin/api/outbox?per_page=5');
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ page: 1, per_page: 5, total: 14, last_page: 3, has_more: true });
    expect(items(first.body.data).map((m) => m.subject)).toEqual(['Legacy', 'Message 12', 'Message 11', 'Message 10', 'Message 9']);

    const last = await admin.request('GET', '/admin/api/outbox?per_page=5&page=3');
    expect(last.body.meta).toEqual({ page: 3, per_page: 5, total: 14, last_page: 3, has_more: false });
    expect(items(last.body.data).map((m) => m.subject)).toEqual(['Message 3', 'Message 2', 'Message 1', 'Message 0']);

    const texts = await admin.request('GET', '/admin/api/outbox?channel=sms&per_page=3');
    expect(texts.body.meta).toEqual({ page: 1, per_page: 3, total: 6, last_page: 2, has_more: true });
    expect(items(texts.body.data).map((m) => m.subject)).toEqual(['Legacy', 'Message 12', 'Message 9']);
    const emails = await admin.request('GET', '/admin/api/outbox?channel=email&per_page=100');
    expect(emails.body.meta.total).toBe(8);
    expect(items(emails.body.data).every((m) => String(m.channel) === 'email')).toBe(true);

    // Past the end: an empty page, the same total.
    const beyond = await admin.request('GET', '/admin/api/outbox?per_page=5&page=9');
    expect(items(beyond.body.data)).toEqual([]);
    expect(beyond.body.meta.total).toBe(14);
  });

  it('an empty outbox counts zero', async () => {
    const res = await admin.request('GET', '/admin/api/outbox');
    expect(res.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0, last_page: 1, has_more: false } });
    expect((await admin.request('GET', '/admin/api/outbox?channel=fax')).status).toBe(422);
  });
});
