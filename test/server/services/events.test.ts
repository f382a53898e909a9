import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { recordEvent } from '../../../server/services/events.js';
import type { Db } from '../../../server/store/database.js';
import { openScratchSqlite, type ScratchSqlite } from '../../helpers/scratch-sqlite.js';
import { insertUser } from '../../../server/store/repos/users-repo.js';

let scratch: ScratchSqlite;
let db: Db;

beforeEach(async () => {
  scratch = await openScratchSqlite('events');
  db = scratch.db;
});
afterEach(() => scratch.close());

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
