import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/clock.js';
import { recordEvent } from '../../../server/services/events.js';
import { migrateToLatest, openDatabase, type Db } from '../../../server/store/database.js';
import { insertUser } from '../../../server/store/users-repo.js';

let dir: string;
let db: Db;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verity-events-'));
  db = await openDatabase({ dataDir: dir });
  await migrateToLatest(db);
});
afterEach(async () => {
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

describe('recordEvent', () => {
  it('keeps the order of the events of one transaction, which share their time, when sorted by (occurred_at, id)', async () => {
    const now = new Date().toISOString();
    const user = await insertUser(db, {
      uuid: randomUUID(),
      username: 'ordered',
      email: 'ordered@example.com',
      role_id: 2,
      status: 'Unconfirmed',
      link_key: randomUUID(),
      created_at: now,
      updated_at: now,
    });
    // A stopped clock: every event gets the same occurred_at, as in one transaction.
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const written = await db.transaction().execute(async (trx) => {
      const ids: string[] = [];
      for (let i = 0; i < 200; i++) ids.push(await recordEvent(trx, clock, { type: i % 2 ? 'verification.pending' : 'user.status.changed', userId: user.id }));
      return ids;
    });
    const stored = await db.selectFrom('events').select('id').orderBy('occurred_at').orderBy('id').execute();
    expect(stored.map((e) => e.id)).toEqual(written);
  });
});
