import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../../server/store/database.js';
import type { NewUser } from '../../../server/store/schema.js';
import { UserSearchIndexer } from '../../../server/store/user-search-index.js';
import { deleteUserRow, insertUser, listUsers, updateUserRow } from '../../../server/store/users-repo.js';

/**
 * SQLite's search index is filled in batches after the users' commits (migration 0009); a search
 * must give the same answer before and after a batch. No server here: the test decides when the
 * batches run.
 */
let dir: string;
let db: Db;
let indexer: UserSearchIndexer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verity-search-'));
  db = await openDatabase({ dataDir: dir });
  await migrateToLatest(db);
  indexer = UserSearchIndexer.for(db, 3)!;
});
afterEach(async () => {
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

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

  it('leaves the index alone while another transaction holds the connection', async () => {
    await insertUser(db, user('waiting', 'Wait', 'Please', 'waiting@example.com'));
    await db.transaction().execute(async () => {
      expect(indexer.indexBatch()).toBeUndefined();
    });
    expect(indexer.indexBatch()).toBe(1);
  });
});
