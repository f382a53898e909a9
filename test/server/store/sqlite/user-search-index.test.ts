import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../../../server/store/database.js';
import { openScratchSqlite, type ScratchSqlite } from '../../../helpers/scratch-sqlite.js';
import type { NewUser } from '../../../../server/store/schema.js';
import { UserSearchIndexer } from '../../../../server/store/sqlite/user-search-index.js';
import { deleteUserRow, insertUser, listUsers, updateUserRow } from '../../../../server/store/repos/users-repo.js';

/**
 * SQLite's search index is filled in batches after the users' commits (migration 0009); a search
 * must give the same answer before and after a batch. No server here: the test decides when the
 * batches run.
 */
let scratch: ScratchSqlite;
let db: Db;
let indexer: UserSearchIndexer;

beforeEach(async () => {
  scratch = await openScratchSqlite('search');
  db = scratch.db;
  indexer = UserSearchIndexer.for(db, 3)!;
});
afterEach(() => scratch.close());

function user(username: string, first: string, last: string, email: string): NewUser {
  const now = new Date().toISOString();
  return {
    uuid: randomUUID(),
    username,
    first_name: first,
    last_name: last,
    email,
    role_id: 2,
    status: 'Unconfirmed',
    link_key: randomUUID(),
    created_at: now,
    updated_at: now,
  };
}

async function search(text: string): Promise<string[]> {
  const { rows, total } = await listUsers(db, { search: text, sort: 'id', descending: false, page: 1, perPage: 100 });
  expect(total).toBe(rows.length);
  return rows.map((r) => r.username);
}

async function indexed(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from users_search`.execute(db);
  return rows[0]!.n;
}

describe('user search index (SQLite)', () => {
  it('finds a user from their commit on, before and after the batch that indexes them, exactly once', async () => {
    await insertUser(db, user('ada', 'Ada', 'Lovelace', 'ada@example.com'));
    await insertUser(db, user('grace', 'Grace', 'Hopper', 'grace@example.com'));
    expect(await indexed()).toBe(0);
    expect(await search('lovel')).toEqual(['ada']);
    expect(await search('EXAMPLE.COM')).toEqual(['ada', 'grace']);

    expect(indexer.indexBatch()).toBe(2);
    expect(await indexed()).toBe(2);
    expect(await search('lovel')).toEqual(['ada']);
    expect(await search('example.com')).toEqual(['ada', 'grace']);
    expect(indexer.indexBatch()).toBe(0);
  });

  it('with nothing to index, does not wait for another process that holds the write lock', async () => {
    await insertUser(db, user('ada', 'Ada', 'Lovelace', 'ada@example.com'));
    expect(indexer.indexBatch()).toBe(1);
    // Another process (the CLI, say) in a long write transaction on the same file.
    const other = new Database(join(scratch.dir, 'verity.sqlite'));
    try {
      other.exec('begin immediate');
      // Taking the write lock would wait out the connection's busy_timeout (5 s), then throw SQLITE_BUSY.
      expect(indexer.indexBatch()).toBe(0);
      other.exec('rollback');
    } finally {
      other.close();
    }
    await insertUser(db, user('grace', 'Grace', 'Hopper', 'grace@example.com'));
    expect(indexer.indexBatch()).toBe(1);
  });

  it('matches an indexed user within one column, never across the end of one and the start of the next', async () => {
    await insertUser(db, user('mann', 'Mary Ann', 'Annlee', 'mary.ann@delta.example'));
    expect(indexer.indexBatch()).toBe(1);
    expect(await search('MARY ANN')).toEqual(['mann']);
    expect(await search('annlee')).toEqual(['mann']);
    expect(await search('ann ann')).toEqual([]);
    expect(await search('annann')).toEqual([]);
    expect(await search('annmary')).toEqual([]);
  });

  it('indexes in batches of the given size, oldest first, and a later batch picks up the rest', async () => {
    for (let i = 0; i < 7; i++) await insertUser(db, user(`batch${i}`, 'Batch', `Member${i}`, `batch${i}@example.com`));
    expect(indexer.indexBatch()).toBe(3);
    expect(await search('member')).toHaveLength(7);
    expect(indexer.indexBatch()).toBe(3);
    expect(indexer.indexBatch()).toBe(1);
    expect(await indexed()).toBe(7);
    expect(await search('member')).toHaveLength(7);
  });

  it('indexes a user changed before their batch as they are then, and never a user deleted before it', async () => {
    const renamed = await insertUser(db, user('renamed', 'Old', 'Name', 'renamed@example.com'));
    const deleted = await insertUser(db, user('deleted', 'Gone', 'Soon', 'deleted@example.com'));
    await updateUserRow(db, renamed.id, { first_name: 'Newfirst' });
    await deleteUserRow(db, deleted.id);
    expect(await search('newfirst')).toEqual(['renamed']);
    expect(await search('gone')).toEqual([]);

    expect(indexer.indexBatch()).toBe(1);
    expect(await search('newfirst')).toEqual(['renamed']);
    expect(await search('old')).toEqual([]);
    expect(await search('gone')).toEqual([]);

    // After indexing, changes go through the update and delete triggers.
    await updateUserRow(db, renamed.id, { last_name: 'Othername' });
    expect(await search('othername')).toEqual(['renamed']);
    await deleteUserRow(db, renamed.id);
    expect(await search('othername')).toEqual([]);
    expect(await indexed()).toBe(0);
  });

  it('finds the text itself, not rows that merely hold its trigrams apart, in any letter case', async () => {
    await insertUser(db, user('scattered', 'Abcxx', 'Xxdef', 'scattered@example.com'));
    await insertUser(db, user('together', 'Tom', 'Abcdef', 'together@example.com'));
    await insertUser(db, user('accent', 'Élodie', 'Durand', 'elodie@example.com'));
    // Before the batch, the scan of the users not yet indexed folds the case the same way.
    expect(await search('ÉLODIE')).toEqual(['accent']);
    expect(await search('élo')).toEqual(['accent']);
    expect(await search('abcdef')).toEqual(['together']);
    expect(indexer.indexBatch()).toBe(3);
    expect(await search('abcdef')).toEqual(['together']);
    expect(await search('BCDE')).toEqual(['together']);
    expect(await search('xx')).toEqual(['scattered']);
    // A term with letters beyond ASCII is matched by the index's own Unicode case folding.
    expect(await search('ÉLODIE')).toEqual(['accent']);
    expect(await search('élo')).toEqual(['accent']);
    // Under three characters there is no index to use: a scan, with the same folding.
    expect(await search('ÉL')).toEqual(['accent']);
    expect(await search('él')).toEqual(['accent']);
  });

  it('pages and counts a search from one match: every page, any sort, and a page past the end', async () => {
    // Last names Zed0, Zed3, Zed6, Zed2, Zed5, Zed1, Zed4: sorting by them is not id order.
    for (let i = 0; i < 7; i++) await insertUser(db, user(`pager${i}`, 'Pager', `Zed${(i * 3) % 7}`, `pager${i}@example.com`));
    await insertUser(db, user('other', 'Other', 'Person', 'other@example.com'));
    while ((indexer.indexBatch() ?? 0) > 0);
    await insertUser(db, user('pager7', 'Pager', 'Zed7', 'pager7@example.com')); // not yet indexed
    const page = (n: number, sort: 'last_name' | 'id', descending: boolean) =>
      listUsers(db, { search: 'pager', sort, descending, page: n, perPage: 3 }).then(({ rows, total }) => ({ names: rows.map((r) => r.username), total }));

    expect(await page(1, 'last_name', true)).toEqual({ names: ['pager7', 'pager2', 'pager4'], total: 8 });
    expect(await page(2, 'last_name', true)).toEqual({ names: ['pager6', 'pager1', 'pager3'], total: 8 });
    expect(await page(3, 'last_name', true)).toEqual({ names: ['pager5', 'pager0'], total: 8 });
    expect(await page(4, 'last_name', true)).toEqual({ names: [], total: 8 });
    expect(await page(1, 'id', false)).toEqual({ names: ['pager0', 'pager1', 'pager2'], total: 8 });
    const filtered = await listUsers(db, {
      search: 'pager',
      email: 'PAGER3@example.com',
      status: 'unconfirmed',
      sort: 'id',
      descending: false,
      page: 1,
      perPage: 3,
    });
    expect({ names: filtered.rows.map((r) => r.username), total: filtered.total }).toEqual({ names: ['pager3'], total: 1 });
    expect((await listUsers(db, { search: 'pager', status: 'verified', sort: 'id', descending: false, page: 1, perPage: 3 })).total).toBe(0);
    expect(await listUsers(db, { search: 'nobody', sort: 'id', descending: false, page: 1, perPage: 3 })).toEqual({ rows: [], total: 0 });
    expect(await listUsers(db, { search: 'nobody', sort: 'id', descending: false, page: 2, perPage: 3 })).toEqual({ rows: [], total: 0 });
  });

  it('merges the segments of many batches while idle, and searches find the same users after', async () => {
    const { rows: config } = await sql<{ v: number }>`select v from users_search_config where k = 'usermerge'`.execute(db);
    expect(config).toEqual([{ v: 2 }]);
    for (let i = 0; i < 12; i++) {
      await insertUser(db, user(`seg${i}`, 'Seg', `Ment${i}`, `seg${i}@example.com`));
      expect(indexer.indexBatch()).toBe(1); // a segment per batch
    }
    const before = await search('seg');
    expect(before).toHaveLength(12);
    const segments = async () => (await sql<{ n: number }>`select count(*) as n from users_search_data`.execute(db)).rows[0]!.n;
    const rowsBefore = await segments();
    let steps = 0;
    while (indexer.mergeStep(1)) steps++;
    expect(steps).toBeGreaterThan(0);
    expect(indexer.mergeStep(1)).toBe(false);
    expect(await segments()).toBeLessThan(rowsBefore);
    expect(await search('seg')).toEqual(before);
    expect(await search('ment1')).toEqual(['seg1', 'seg10', 'seg11']);
    await db.transaction().execute(async () => {
      expect(indexer.mergeStep()).toBeUndefined();
    });
  });

  it('does the merge work by itself once it runs and has nothing to index', async () => {
    for (let i = 0; i < 12; i++) {
      await insertUser(db, user(`idle${i}`, 'Idle', `Merge${i}`, `idle${i}@example.com`));
      indexer.indexBatch();
    }
    const segments = async () => (await sql<{ n: number }>`select count(*) as n from users_search_data`.execute(db)).rows[0]!.n;
    const before = await segments();
    indexer.start(1);
    try {
      await vi.waitFor(async () => expect(await segments()).toBeLessThan(before), { timeout: 5_000 });
    } finally {
      indexer.stop();
    }
    expect(await search('idle')).toHaveLength(12);
  });

  it('leaves the index alone while another transaction holds the connection', async () => {
    await insertUser(db, user('waiting', 'Wait', 'Please', 'waiting@example.com'));
    await db.transaction().execute(async () => {
      expect(indexer.indexBatch()).toBeUndefined();
    });
    expect(indexer.indexBatch()).toBe(1);
  });
});
