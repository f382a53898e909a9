import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { migrateToLatest, type Db } from '../../../server/store/database.js';
import type { Database } from '../../../server/store/schema.js';
import { seedDefaults } from '../../../server/store/seed.js';
import { listUsers, SORTABLE_USER_FIELDS, type UserListQuery } from '../../../server/store/repos/users-repo.js';
import { acquireDatabase, createScratchDatabase, releaseDatabase, type ScratchDatabase } from '../../helpers/postgres.js';
import { TEST_DATABASE_URL } from '../../helpers/scale-env.js';
import { startTestServer } from '../../helpers/server.js';

let database: ScratchDatabase;
let db: Db;
let pool: pg.Pool;
/** The last SELECT a repository ran, as PostgreSQL received it. */
let captured: CompiledQuery[] = [];

beforeAll(async () => {
  database = await acquireDatabase(TEST_DATABASE_URL);
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push(event.query);
    },
  });
  await migrateToLatest(db);
  await seedDefaults(db, new ManualClock());
  await sql`insert into users (uuid, first_name, last_name, username, email, role_id, status, reference_id, template_id, link_key, created_at, updated_at)
    select md5('u' || i), 'First' || i, 'Last' || i, 'user' || i, 'user' || i || '@example.com', 2,
           case when i % 10 = 0 then 'Verified' else 'Unconfirmed' end, 'ref-' || i, 1, md5('k' || i),
           to_char(timestamp '2026-01-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           to_char(timestamp '2026-01-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    from generate_series(1, 2000) as i`.execute(db);
  await sql`analyze users`.execute(db);
}, 120_000);

afterAll(async () => {
  await db.destroy();
  await releaseDatabase(database);
});

const base: UserListQuery = { sort: 'id', descending: false, page: 1, perPage: 20 };

/** Runs the list query, then asks PostgreSQL how it runs each statement with sequential scans off. */
async function plans(q: UserListQuery): Promise<{ result: Awaited<ReturnType<typeof listUsers>>; plans: string[] }> {
  captured = [];
  const result = await listUsers(db, q);
  const out: string[] = [];
  const client = await pool.connect();
  try {
    await client.query('set enable_seqscan = off');
    for (const query of captured) {
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${query.sql}`, [...query.parameters]);
      out.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
    await client.query('reset enable_seqscan');
  } finally {
    client.release();
  }
  return { result, plans: out };
}

describe('PostgreSQL store: the list endpoint is served by indexes', () => {
  it('filter[search] (3+ characters) uses the pg_trgm index over the four columns', async () => {
    const { result, plans: p } = await plans({ ...base, search: 'r123' });
    expect(result.total).toBe(11); // user123, user1230..1239
    expect(result.rows.map((r) => r.username)).toContain('user123');
    // One statement finds the matches through the trigram index and takes page and count from them.
    expect(p).toHaveLength(1);
    expect(p[0]).toContain('users_search_trgm_idx');
    expect(p[0]).not.toMatch(/Seq Scan/);
  });

  it('filter[search] keeps its total on a page past the end, and matches each column on its own', async () => {
    const past = await plans({ ...base, search: 'r123', page: 4, perPage: 5 });
    expect(past.result).toEqual({ rows: [], total: 11 });
    for (const plan of past.plans) expect(plan).toContain('users_search_trgm_idx');
    const second = await listUsers(db, { ...base, search: 'r123', page: 2, perPage: 5, sort: 'email', descending: true });
    expect(second.total).toBe(11);
    expect(second.rows.map((r) => r.username)).toEqual(['user1235', 'user1234', 'user1233', 'user1232', 'user1231']); // 'user123@…' sorts after 'user1239@…'
    // 'user12 first12' is in the four columns joined with spaces, but in no single column.
    expect((await listUsers(db, { ...base, search: 'user12 first12' })).total).toBe(0);
    expect((await listUsers(db, { ...base, search: 'first12 ' })).total).toBe(0);
    expect((await listUsers(db, { ...base, search: 'FIRST1234' })).rows.map((r) => r.id)).toEqual([1234]);
  });

  it('filter[email] and filter[status] use their lower() indexes', async () => {
    const email = await plans({ ...base, email: 'USER42@example.com' });
    expect(email.result.rows.map((r) => r.id)).toEqual([42]);
    for (const plan of email.plans) expect(plan).toContain('users_email_sort_idx');
    const status = await plans({ ...base, status: 'verified', perPage: 5 });
    expect(status.result.total).toBe(200);
    expect(status.plans[0]).toContain('users_status_lower_idx');
  });

  it('every sort field is read in index order (no full sort of the table)', async () => {
    for (const field of SORTABLE_USER_FIELDS) {
      for (const descending of [false, true]) {
        const { result, plans: p } = await plans({ ...base, sort: field, descending, perPage: 3 });
        expect(result.rows).toHaveLength(3);
        const page = p.at(-1)!;
        const folded = ['first_name', 'last_name', 'email'].includes(field);
        const index = field === 'id' ? 'users_pkey' : folded ? `users_${field}_sort_idx` : `users_${field}_idx`;
        expect(page, `${field} ${descending ? 'desc' : 'asc'}`).toContain(index);
        // The case-folded sorts are indexed with their tiebreaker: not even an incremental sort.
        if (folded) expect(page).not.toMatch(/Sort Key/);
      }
    }
  });

  it('counts come back as numbers and ids as integers', async () => {
    const { result } = await plans({ ...base, sort: 'created_at', descending: true, perPage: 2 });
    expect(result.total).toBe(2000);
    expect(typeof result.total).toBe('number');
    expect(result.rows.map((r) => r.id)).toEqual([2000, 1999]);
  });
});

describe('PostgreSQL search folds every letter, whatever the database locale', () => {
  it('finds accented and non-Latin names in any case in a database made with the C locale', async () => {
    // Under LC_CTYPE C, PostgreSQL's own lower() folds ASCII only: 'ÉLODIE' stays 'Élodie'.
    const own = await createScratchDatabase(TEST_DATABASE_URL, 'cfold', 'C');
    const cdb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: own.url, max: 1 }) }) });
    try {
      await migrateToLatest(cdb);
      await seedDefaults(cdb, new ManualClock());
      const { rows: folded } = await sql<{ plain: string }>`select lower('ÉLODIE') as plain`.execute(cdb);
      expect(folded[0]!.plain).toBe('Élodie');
      const at = '2026-01-01T00:00:00.000Z';
      for (const [i, first, last] of [
        [1, 'Élodie', 'Ñúñez'],
        [2, 'Дмитрий', 'Ωmega'],
        [3, 'Plain', 'Ascii'],
      ] as const) {
        await cdb
          .insertInto('users')
          .values({
            uuid: `u${i}`,
            first_name: first,
            last_name: last,
            username: `user${i}`,
            email: `u${i}@example.com`,
            role_id: 2,
            status: 'Unconfirmed',
            template_id: 1,
            link_key: `k${i}`,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
      const found = async (search: string) => (await listUsers(cdb, { ...base, search })).rows.map((r) => r.username);
      expect(await found('élodie')).toEqual(['user1']);
      expect(await found('ÉLODIE')).toEqual(['user1']);
      expect(await found('ÑÚÑ')).toEqual(['user1']);
      expect(await found('дмитрий')).toEqual(['user2']);
      expect(await found('ωMEGA')).toEqual(['user2']);
      expect(await found('PLAIN')).toEqual(['user3']);
      expect(await found('élodie ñúñez')).toEqual([]);
    } finally {
      await cdb.destroy();
      await own.drop();
    }
  });
});

describe('PostgreSQL through the API', () => {
  it('answers 4xx, not 500, for text PostgreSQL cannot store (a NUL byte)', async () => {
    const own = await acquireDatabase(TEST_DATABASE_URL);
    const server = await startTestServer({ env: { VERITY_DATABASE_URL: own.url }, workers: false });
    try {
      const res = await server.api('/api/users/ref/%00');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error_type: 'api_invalid_error' });
      const created = await server.api('/api/users', { body: { email: 'nul@example.com', first_name: 'a\u0000b' } });
      expect(created.status).toBeLessThan(500);
    } finally {
      await server.close();
      await releaseDatabase(own);
    }
  });
});
