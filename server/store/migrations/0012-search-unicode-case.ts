import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * `filter[search]` is case-insensitive (architecture.md), for every letter: SQLite folds Unicode
 * (migration 0009 and `unicode_lower`), but PostgreSQL's `lower()` follows the database's
 * LC_CTYPE, and under the C locale it folds ASCII only, so 'ÉLODIE' did not find 'Élodie'.
 * The search now folds case through a collation of its own, `verity_fold`: ICU's root locale
 * where PostgreSQL has ICU (it folds every script, whatever the database's locale), else a copy
 * of the database's own LC_CTYPE, which changes nothing. The trigram index is rebuilt on the new
 * expression (user-search-postgres.ts writes the same).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const icu = await sql`select 1 from pg_collation where collprovider = 'i' limit 1`.execute(db);
  if (icu.rows.length > 0) {
    await sql`create collation verity_fold (provider = icu, locale = 'und')`.execute(db);
  } else {
    const { rows } = await sql<{ ctype: string }>`select datctype as ctype from pg_database where datname = current_database()`.execute(db);
    await sql`create collation verity_fold (provider = libc, locale = ${sql.lit(rows[0]!.ctype)})`.execute(db);
  }
  await sql`drop index users_search_trgm_idx`.execute(db);
  await sql`create index users_search_trgm_idx on users using gin (
    lower((coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || email) collate verity_fold) gin_trgm_ops
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index users_search_trgm_idx`.execute(db);
  await sql`create index users_search_trgm_idx on users using gin (
    lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || email) gin_trgm_ops
  )`.execute(db);
  await sql`drop collation verity_fold`.execute(db);
}
