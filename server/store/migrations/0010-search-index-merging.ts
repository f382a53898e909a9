import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * SQLite's user search index gets a segment per indexing batch (0009), and a search reads every
 * segment. FTS5 merges a level's segments once `usermerge` of them (default 4) are there; two keeps
 * the index near one segment per level, which halved the time of a search at 100k users (issue 2).
 * The indexer runs the merges while idle (`UserSearchIndexer.mergeStep`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`insert into users_search(users_search, rank) values ('usermerge', 2)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`insert into users_search(users_search, rank) values ('usermerge', 4)`.execute(db);
}
