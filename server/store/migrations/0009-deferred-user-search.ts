import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * SQLite's FTS5 search index over users (0001) was filled by a trigger in the inserting
 * transaction: every `POST /api/users` wrote a new index segment, which cost as much as the rest
 * of the insert (issue 2). New users are now indexed in batches after their commit
 * (`server/store/sqlite/user-search-index.ts`); `users_search_state.indexed_upto` is the highest user id
 * the index holds, and a search also scans the few users above it (`listUsers`), so a user is
 * found from the moment they exist. Updates and deletes keep their triggers: they are rare, and
 * for a user not yet indexed they change nothing (the batch indexes the row as it then is).
 * PostgreSQL's pg_trgm index is unaffected.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create table users_search_state (id integer primary key check (id = 1), indexed_upto integer not null)`.execute(db);
  // Every user so far was indexed by the trigger.
  await sql`insert into users_search_state (id, indexed_upto) select 1, coalesce(max(id), 0) from users`.execute(db);
  await sql`drop trigger users_search_ai`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`insert into users_search(rowid, username, first_name, last_name, email)
    select id, username, first_name, last_name, email from users where id > (select indexed_upto from users_search_state)`.execute(db);
  await sql`create trigger users_search_ai after insert on users begin
    insert into users_search(rowid, username, first_name, last_name, email) values (new.id, new.username, new.first_name, new.last_name, new.email);
  end`.execute(db);
  await sql`drop table users_search_state`.execute(db);
}
