import type { UserRow } from '../schema.js';
import { UNICODE_LOWER } from './sqlite-connection.js';
import { sortExpression, type UserListQuery } from '../repos/user-list-query.js';

/**
 * `filter[search]` on SQLite (spec 4.17): a "contains" match over four columns through the FTS5
 * trigram index (migrations 0001, 0009, 0010). Written in SQL rather than built with kysely: the
 * list with a search is the slowest read of the API (issue 2), and building and compiling the
 * query cost a sixth of its time.
 */

export const SEARCHED_COLUMNS = ['username', 'first_name', 'last_name', 'email'] as const;

/** Trigram indexes need three characters; shorter terms are matched by a scan (users-repo). */
export const TRIGRAM = 3;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** Escapes LIKE wildcards so a search for `50%` means the text `50%`. */
export function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An FTS5 string: the trigram tokenizer turns it into a phrase of the text's trigrams. */
function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The trigrams at 0, 3, 6, … plus the last one, joined with AND: every row holding the text holds
 * them all. A phrase of all the text's trigrams reads each one's positions and cost 40 % more at
 * 100k users; the query then checks the text itself in the few rows this lets through.
 */
function coveringTrigrams(text: string): string {
  const starts: number[] = [];
  for (let i = 0; i + TRIGRAM <= text.length; i += TRIGRAM) starts.push(i);
  if (starts.at(-1)! + TRIGRAM < text.length) starts.push(text.length - TRIGRAM);
  return starts.map((i) => ftsPhrase(text.slice(i, i + TRIGRAM))).join(' AND ');
}

/**
 * The SQL function that folds a column's case for a search term: SQLite's own lower() for an ASCII
 * term (any letter it could match is ASCII), JavaScript's Unicode folding otherwise.
 */
export function lowerFor(term: string): string {
  return PRINTABLE_ASCII.test(term) ? 'lower' : UNICODE_LOWER;
}

/** Users not yet in the search index (migration 0009) whose names or e-mail contain a LIKE pattern, by lower(). */
const newUsersMatching = new Map(
  ['lower', UNICODE_LOWER].map((lower) => [
    lower,
    `select id from users where id > (select indexed_upto from users_search_state where id = 1)
     and (${SEARCHED_COLUMNS.map((c) => `${lower}(${c}) like ? escape '\\'`).join(' or ')})`,
  ]),
);

/** Runs one reading statement and gives its rows as objects. */
export type ReadRows = <Row extends object>(sql: string, params: readonly unknown[]) => Row[] | Promise<Row[]>;

export interface UserSearchResult {
  rows: UserRow[];
  total: number;
}

/**
 * One page of the users matching `q.search` (three characters or more) and the other filters, and
 * their total, read through `read`: on the server's own connection, or on a reader connection in
 * another thread (`user-search-threads.ts`). The SQL text depends only on the query's shape (sort,
 * direction, which filters), a bounded set, so each text is prepared once per connection.
 */
export async function searchUsersWith(read: ReadRows, q: UserListQuery & { search: string }): Promise<UserSearchResult> {
  // The sort expression is written into the SQL: only the listed fields' may be.
  const sort = sortExpression(q.sort);
  const pattern = likeContains(q.search);
  // The index holds the users up to `indexed_upto`; the few created since are matched by a scan,
  // so a user is found from their commit on. Their ids (almost always none) are looked up first:
  // a compound subquery in every search cost more than this.
  const lower = lowerFor(q.search);
  const recent = (await read<{ id: number }>(newUsersMatching.get(lower)!, [pattern, pattern, pattern, pattern])).map((r) => r.id);
  // An ASCII term is narrowed down by a few of its trigrams, then checked as text (ASCII case
  // folding, SQLite's lower, is all it needs). Any other term is matched as a phrase of all its
  // trigrams, with the index's own Unicode case folding.
  const ascii = lower === 'lower';
  const params: unknown[] = [ascii ? coveringTrigrams(q.search) : ftsPhrase(q.search)];
  let where = 'id in (select rowid from users_search where users_search match ?';
  if (recent.length > 0) {
    where += ' union all select value from json_each(?)';
    params.push(JSON.stringify(recent));
  }
  where += ')';
  if (ascii) {
    // One text check over the four columns joined by U+001F, which a printable ASCII term cannot
    // hold, so a match never spans two columns: one lower() per row instead of up to four.
    where += ` and instr(lower(concat_ws(char(31), ${SEARCHED_COLUMNS.join(', ')})), ?) > 0`;
    params.push(q.search.toLowerCase());
  }
  if (q.email) {
    where += ' and lower(email) = ?';
    params.push(q.email.toLowerCase());
  }
  if (q.status) {
    where += ' and lower(status) = ?';
    params.push(q.status.toLowerCase());
  }
  const direction = q.descending ? 'desc' : 'asc';
  // The full-text match is most of the cost: run it once, keep the matches' ids and sort keys,
  // and take both the page and the count from them. The id breaks ties so pages never overlap.
  const found = await read<UserRow & { matched: number }>(
    `with matches as materialized (select id, ${sort} as sort_key from users where ${where})
     select users.*, (select count(*) from matches) as matched from users
     where id in (select id from matches order by sort_key ${direction}, id ${direction} limit ? offset ?)
     order by ${sort} ${direction}, id ${direction}`,
    [...params, q.perPage, (q.page - 1) * q.perPage],
  );
  if (found.length === 0) {
    // A page past the end holds no row to carry the count.
    const total = q.page === 1 ? 0 : ((await read<{ n: number }>(`select count(*) as n from users where ${where}`, params))[0]?.n ?? 0);
    return { rows: [], total };
  }
  return { rows: found.map(({ matched: _, ...row }) => row), total: found[0]!.matched };
}
