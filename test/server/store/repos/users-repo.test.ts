import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../../server/store/database.js';
import { insertUser, insertVerifications, verificationsForUsers } from '../../../../server/store/repos/users-repo.js';
import { openScratchSqlite, type ScratchSqlite } from '../../../helpers/scratch-sqlite.js';

/**
 * The verifications of many users at once (a page of the user list, the dashboard, the stats'
 * latest registrations): every user's rows, none of anyone else's, by user then position.
 */
let scratch: ScratchSqlite;
let db: Db;
/** Users with 1, 2 or 3 methods each; the methods of user i are assigned in a rotating order. */
const methodsOf = new Map<number, number[]>();

beforeAll(async () => {
  scratch = await openScratchSqlite('users-repo');
  db = scratch.db;
  const now = new Date().toISOString();
  for (let i = 0; i < 130; i++) {
    const user = await insertUser(db, {
      uuid: randomUUID(),
      username: `user${i}`,
      first_name: 'Many',
      last_name: `User${i}`,
      email: `user${i}@example.com`,
      role_id: 2,
      status: 'Unconfirmed',
      link_key: randomUUID(),
      created_at: now,
      updated_at: now,
    });
    const methods = [3, 1, 2]
      .slice(i % 3)
      .concat([3, 1, 2].slice(0, i % 3))
      .slice(0, 1 + (i % 3));
    await insertVerifications(db, user.id, methods, 0, now);
    methodsOf.set(user.id, methods);
  }
});
afterAll(() => scratch.close());

function expected(userIds: readonly number[]): { user_id: number; method_id: number; position: number }[] {
  return [...userIds].sort((a, b) => a - b).flatMap((id) => methodsOf.get(id)!.map((method_id, position) => ({ user_id: id, method_id, position })));
}

async function read(userIds: readonly number[]) {
  return (await verificationsForUsers(db, userIds)).map(({ user_id, method_id, position }) => ({ user_id, method_id, position }));
}

describe('verificationsForUsers', () => {
  it('gives none for no users, and one user’s in position order', async () => {
    expect(await verificationsForUsers(db, [])).toEqual([]);
    const [id] = [...methodsOf.keys()].filter((k) => methodsOf.get(k)!.length === 3);
    expect(await read([id!])).toEqual(expected([id!]));
  });

  it('gives a page of users’ verifications by user and position, whatever order the ids come in', async () => {
    const ids = [...methodsOf.keys()];
    const page = [ids[40]!, ids[3]!, ids[17]!, ids[99]!, ids[0]!];
    expect(await read(page)).toEqual(expected(page));
    // A full page of the API (per_page is capped at 100).
    const full = ids.slice(10, 110).reverse();
    expect(await read(full)).toEqual(expected(full));
  });

  it('reads more users than a page in chunks and still orders them all', async () => {
    const ids = [...methodsOf.keys()];
    const shuffled = ids
      .map((id, i) => ({ id, key: (i * 7919) % ids.length }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.id);
    const rows = await read(shuffled);
    expect(rows).toEqual(expected(ids));
    expect(rows).toHaveLength(ids.reduce((n, id) => n + methodsOf.get(id)!.length, 0));
  });
});
