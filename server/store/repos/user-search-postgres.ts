import { sql } from 'kysely';
import type { Executor } from '../database.js';
import type { UserRow } from '../schema.js';
import { sortExpression, type UserListQuery } from './user-list-query.js';
import { likeContains, SEARCHED_COLUMNS } from '../sqlite/user-search.js';

/**
 * `filter[search]` on PostgreSQL (spec 4.17): a "contains" match in any one of the four columns,
 * as on SQLite. The pg_trgm index (migrations 0001, 0012) covers the four columns joined with
 * spaces, lower-cased through the `verity_fold` collation, so that every script's letters fold
 * whatever the database's locale. A term without a space can only match that text inside one
 * column, so the index's expression is the whole test; a term with a space could span two columns
 * ("ada lopez" for first name Ada, last name Lopez), so each column is then also checked on its own.
 */
const indexedText = sql`lower((coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || email) collate verity_fold)`;

/** One page of the users matching `q.search` and the other filters, and their total. */
export async function searchUsersOnPostgres(ex: Executor, q: UserListQuery & { search: string }): Promise<{ rows: UserRow[]; total: number }> {
  // The sort expression is written into the SQL: only the listed fields' may be.
  const sort = sql.raw(sortExpression(q.sort));
  const pattern = likeContains(q.search);
  const conditions = [sql`${indexedText} like ${pattern} escape '\\'`];
  if (q.search.includes(' ')) {
    conditions.push(
      sql`(${sql.join(
        SEARCHED_COLUMNS.map((column) => sql`lower(${sql.ref(column)} collate verity_fold) like ${pattern} escape '\\'`),
        sql` or `,
      )})`,
    );
  }
  if (q.email) conditions.push(sql`lower(email) = ${q.email.toLowerCase()}`);
  if (q.status) conditions.push(sql`lower(status) = ${q.status.toLowerCase()}`);
  const where = sql.join(conditions, sql` and `);
  const direction = sql.raw(q.descending ? 'desc' : 'asc');
  // Page and count in one round trip, each planned on its own: the count through the trigram
  // index, the page either that way or by walking the sort order's index until a page is full,
  // whichever PostgreSQL finds cheaper (a term found in most rows fills a page at once). Taking
  // both from one materialized set of matches, as on SQLite, cost 2 to 4 times more for such terms.
  // The id breaks ties so pages never overlap.
  const { rows } = await sql<UserRow & { matched: string }>`
    select users.*, (select count(*) from users where ${where}) as matched from users where ${where}
    order by ${sort} ${direction}, id ${direction} limit ${q.perPage} offset ${(q.page - 1) * q.perPage}`.execute(ex);
  if (rows.length === 0) {
    // A page past the end holds no row to carry the count.
    if (q.page === 1) return { rows: [], total: 0 };
    const { rows: counted } = await sql<{ n: string }>`select count(*) as n from users where ${where}`.execute(ex);
    return { rows: [], total: Number(counted[0]?.n ?? 0) };
  }
  return { rows: rows.map(({ matched: _, ...row }) => row), total: Number(rows[0]!.matched) };
}
