import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase, type Db } from '../../server/store/database.js';

export interface ScratchSqlite {
  db: Db;
  dir: string;
  /** Closes the database and deletes its folder. */
  close(): Promise<void>;
}

/** A migrated SQLite database of its own in a temporary folder, for tests below the HTTP layer. */
export async function openScratchSqlite(name: string): Promise<ScratchSqlite> {
  const dir = await mkdtemp(join(tmpdir(), `verity-${name}-`));
  const db = await openDatabase({ dataDir: dir });
  await migrateToLatest(db);
  return {
    db,
    dir,
    close: async () => {
      await db.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
