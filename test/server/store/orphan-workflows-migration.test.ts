import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { migrateToLatest, openDatabase, type Db } from '../../../server/store/database.js';
import { migrationProvider } from '../../../server/store/migrations/index.js';
import { seedDefaults } from '../../../server/store/seed.js';
import { createScratchDatabase } from '../../helpers/postgres.js';
import { TEST_DATABASE_URL } from '../../helpers/scale-env.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A store of its own (SQLite, or a scratch PostgreSQL database), migrated up to 0013 and seeded. */
async function storeBefore0014(useSqlite: boolean): Promise<Db> {
  const dataDir = await mkdtemp(join(tmpdir(), 'verity-0014-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const scratch = useSqlite ? undefined : await createScratchDatabase(TEST_DATABASE_URL, 'mig');
  if (scratch) cleanups.push(() => scratch.drop());
  const db = await openDatabase({ dataDir, databaseUrl: scratch?.url });
  cleanups.push(() => db.destroy());
  const { error } = await new Migrator({ db, provider: migrationProvider() }).migrateTo('0013-case-insensitive-sort');
  expect(error).toBeUndefined();
  await seedDefaults(db, new ManualClock());
  return db;
}

async function addUser(db: Db, n: number, methodIds: number[], workflowStatuses: number[]): Promise<number> {
  const at = '2026-01-01T00:00:00.000Z';
  const { id } = await db
    .insertInto('users')
    .values({
      uuid: `u${n}`,
      email: `u${n}@example.com`,
      username: `u${n}`,
      role_id: 2,
      status: 'Active',
      template_id: 1,
      link_key: `k${n}`,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [position, method_id] of methodIds.entries()) {
    await db.insertInto('user_verifications').values({ user_id: id, method_id, status: 0, attributes: '{}', position, updated_at: at }).execute();
  }
  const workflows = await db.selectFrom('workflows').select('raw_id').orderBy('raw_id').execute();
  for (const [i, status] of workflowStatuses.entries()) {
    await db
      .insertInto('user_workflows')
      .values({ user_id: id, workflow_raw_id: workflows[i]!.raw_id, status, remarks: null, completed_at: null, updated_at: at })
      .execute();
  }
  return id;
}

describe('migration 0014-orphan-document-workflows', () => {
  it.each([
    ['SQLite', true],
    ['PostgreSQL', false],
  ] as const)('on %s, deletes the workflows of users without Document / ID, and only those', async (_name, sqlite) => {
    const db = await storeBefore0014(sqlite);
    // Left behind by an earlier removal of Document / ID: a reset workflow and a complete one.
    const orphaned = await addUser(db, 1, [1], [5, 2]);
    // Still has Document / ID: its workflows, whatever their status, stay.
    const kept = await addUser(db, 2, [1, 3], [5, 0]);
    await migrateToLatest(db);
    const rows = await db.selectFrom('user_workflows').select(['user_id', 'status']).orderBy('user_id').orderBy('workflow_raw_id').execute();
    expect(rows).toEqual([
      { user_id: kept, status: 5 },
      { user_id: kept, status: 0 },
    ]);
    expect(rows.some((r) => r.user_id === orphaned)).toBe(false);
  });
});
