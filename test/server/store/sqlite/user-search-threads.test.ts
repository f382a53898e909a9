import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../../server/store/database.js';
import type { NewUser } from '../../../../server/store/schema.js';
import type { UserListQuery } from '../../../../server/store/repos/user-list-query.js';
import { UserSearchIndexer } from '../../../../server/store/sqlite/user-search-index.js';
import { UserSearchThreads } from '../../../../server/store/sqlite/user-search-threads.js';
import { insertUser, listUsers } from '../../../../server/store/repos/users-repo.js';
import { openScratchSqlite, type ScratchSqlite } from '../../../helpers/scratch-sqlite.js';

/**
 * On SQLite, `filter[search]` runs in worker threads of its own (UserSearchThreads): the answers
 * must be the ones the server's own connection gives (a transaction keeps a search there), for
 * every shape of query, including users the search index has not taken in yet.
 */
let scratch: ScratchSqlite;
let db: Db;
let threads: UserSearchThreads;

const FIRST = ['Ada', 'Zoë', 'Ærøn', 'Grace', 'Ana', 'Ömer'];
const LAST = ['Lovelace', 'Hopper', 'Ståhl', 'Müller', 'Anderson'];

function user(i: number): NewUser {
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[i % LAST.length]!;
  // Distinct creation times in an order other than the ids', so the sorts differ.
  const at = new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % 100) * 60_000).toISOString();
  return {
    uuid: randomUUID(),
    username: `user${i}`,
    first_name: first,
    last_name: last,
    email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
    role_id: 2,
    status: i % 3 === 0 ? 'Verified' : 'Unconfirmed',
    link_key: randomUUID(),
    created_at: at,
    updated_at: at,
  };
}

beforeAll(async () => {
  scratch = await openScratchSqlite('search-threads');
  db = scratch.db;
  for (let i = 0; i < 80; i++) await insertUser(db, user(i));
  // The first 60 go into the index; the last 20 are found by the scan of users not yet indexed.
  const indexer = UserSearchIndexer.for(db, 60)!;
  expect(indexer.indexBatch()).toBe(60);
  threads = UserSearchThreads.attach(db, { threads: 2 })!;
  expect(await threads.whenReady()).toBe(true);
});
afterAll(async () => {
  await threads.close();
  await scratch.close();
});

const query = (search: string, more: Partial<UserListQuery> = {}): UserListQuery => ({ search, sort: 'id', descending: false, page: 1, perPage: 15, ...more });

/** The same search on the server's connection: in a transaction, which never goes to a thread. */
function onConnection(q: UserListQuery) {
  return db.transaction().execute((trx) => listUsers(trx, q));
}

describe('UserSearchThreads', () => {
  it('gives the answers of the server’s own connection, for every kind of query, and runs them in its threads', async () => {
    const queries = [
      query('lovelace'),
      query('LOVE', { sort: 'created_at', descending: true }),
      query('ada.l', { sort: 'email' }),
      query('zoë', { sort: 'last_name', descending: true }),
      query('STÅHL', { sort: 'first_name' }),
      query('example.com', { sort: 'created_at', page: 3, perPage: 10 }),
      query('example.com', { status: 'verified', sort: 'updated_at', descending: true }),
      query('hopper', { email: 'zoë.hopper1@example.com' }),
      query('user7', { sort: 'id', descending: true }),
      // Past the last page: no rows, and the total all the same.
      query('anderson', { page: 9 }),
      query('nobody-has-this'),
    ];
    const before = threads.searchesRun;
    for (const q of queries) {
      const inThread = await listUsers(db, q);
      expect(inThread).toEqual(await onConnection(q));
    }
    expect(threads.searchesRun - before).toBe(queries.length);

    // What the answers are, not only that both agree: a term in both indexed and new users.
    const lovelace = await listUsers(db, query('lovelace', { perPage: 100 }));
    expect(lovelace.total).toBe(16);
    expect(lovelace.rows.map((r) => r.username)).toEqual(Array.from({ length: 16 }, (_, k) => `user${k * 5}`));
    const pastTheEnd = await listUsers(db, query('anderson', { page: 9 }));
    expect(pastTheEnd).toEqual({ rows: [], total: 16 });
  });

  it('finds a user from the commit of their creation on', async () => {
    const created = await insertUser(db, { ...user(80), first_name: 'Quentin', email: 'quentin.quokka@example.com' });
    const { rows, total } = await listUsers(db, query('quokka'));
    expect(total).toBe(1);
    expect(rows[0]!.id).toBe(created.id);
  });

  it('leaves searches to the server’s connection once closed', async () => {
    const other = await openScratchSqlite('search-threads-closed');
    try {
      await insertUser(other.db, user(1));
      const closing = UserSearchThreads.attach(other.db, { threads: 1 })!;
      expect(await closing.whenReady()).toBe(true);
      await closing.close();
      expect(UserSearchThreads.of(other.db)).toBeUndefined();
      const { rows } = await listUsers(other.db, query('zoë'));
      expect(rows.map((r) => r.username)).toEqual(['user1']);
      expect(closing.searchesRun).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('gives no threads to a transaction', async () => {
    await db.transaction().execute(async (trx) => {
      expect(UserSearchThreads.of(trx)).toBeUndefined();
    });
    expect(UserSearchThreads.of(db)).toBe(threads);
  });
});
