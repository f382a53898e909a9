import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migrations/helpers.js';
import type { Executor } from '../database.js';
import { HotStatement } from '../sqlite/hot-statements.js';
import { likeContains, lowerFor, SEARCHED_COLUMNS, TRIGRAM } from '../sqlite/user-search.js';
import { searchUsersOnSqlite } from '../sqlite/user-search-threads.js';
import { searchUsersOnPostgres } from './user-search-postgres.js';
import { sortExpression, type UserListQuery } from './user-list-query.js';
import type { NewUser, UserRow, UserUpdate, UserVerificationRow, UserWorkflowRow } from '../schema.js';
import { isUniqueViolation } from '../unique-violation.js';

export { SORTABLE_USER_FIELDS, type UserListQuery, type UserSortField } from './user-list-query.js';

/** Every column a new user row has (all but `id`); the type makes sure none is missing. */
const INSERTED_COLUMNS: Record<Exclude<keyof UserRow, 'id'>, true> = {
  uuid: true,
  first_name: true,
  last_name: true,
  username: true,
  email: true,
  phone: true,
  avatar: true,
  address: true,
  country_id: true,
  role_id: true,
  status: true,
  birthday: true,
  last_login: true,
  two_factor_country_code: true,
  two_factor_phone: true,
  two_factor_options: true,
  email_verified_at: true,
  notice: true,
  reference_id: true,
  template_id: true,
  custom_verify_data: true,
  order_id: true,
  completion_url: true,
  redirect_url: true,
  dea_number: true,
  link_key: true,
  ip: true,
  ip_country: true,
  last_activity: true,
  created_at: true,
  updated_at: true,
};
const insertedColumns = Object.keys(INSERTED_COLUMNS) as (keyof NewUser)[];

// The statements of the hot API paths (issue 2); see hot-statements.ts.
const insertUserStatement = new HotStatement<UserRow>(
  `insert into users (${insertedColumns.join(', ')}) values (${insertedColumns.map(() => '?').join(', ')}) returning *`,
);
const userByIdStatement = new HotStatement<UserRow>('select * from users where id = ?');
const usernameStatement = new HotStatement<{ id: number }>('select id from users where username = ? limit 1');
const usernameExceptStatement = new HotStatement<{ id: number }>('select id from users where username = ? and id <> ? limit 1');
const verificationsOfUserStatement = new HotStatement<UserVerificationRow>('select * from user_verifications where user_id = ? order by position');

/**
 * The verifications of a page of users, one statement per number of users (up to a page's cap of
 * 100; more are read in chunks), made on first use. Building the query with kysely on every list
 * request cost about as much as SQLite took to run it.
 */
const verificationsOfUsersStatements = new Map<number, HotStatement<UserVerificationRow>>();
const USERS_PER_VERIFICATIONS_READ = 100;

function verificationsOfUsersStatement(count: number): HotStatement<UserVerificationRow> {
  let statement = verificationsOfUsersStatements.get(count);
  if (!statement) {
    const placeholders = Array.from({ length: count }, () => '?').join(', ');
    statement = new HotStatement(`select * from user_verifications where user_id in (${placeholders}) order by user_id, position`);
    verificationsOfUsersStatements.set(count, statement);
  }
  return statement;
}

const insertVerificationStatement = new HotStatement<never>(
  'insert into user_verifications (user_id, method_id, status, attributes, position, started_at, completed_at, remarks, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
);

/** Assigns methods to a user, in this order, all at `status` with empty attributes. */
export async function insertVerifications(ex: Executor, userId: number, methodIds: readonly number[], status: number, now: string): Promise<void> {
  for (let position = 0; position < methodIds.length; position++) {
    await insertVerificationStatement.run(ex, [userId, methodIds[position], status, '{}', position, null, null, null, now]);
  }
}

export async function insertUser(ex: Executor, user: NewUser): Promise<UserRow> {
  // Columns a caller leaves out are nullable ones without a default: null is what they would get.
  const row = await insertUserStatement.first(
    ex,
    insertedColumns.map((c) => user[c] ?? null),
  );
  return row!;
}

export function findUserById(ex: Executor, id: number): Promise<UserRow | undefined> {
  return userByIdStatement.first(ex, [id]);
}

/**
 * The user's row read inside a transaction `trx` and held until it ends (SQLite runs one
 * transaction at a time): what the user's status is derived from cannot change under it. On
 * PostgreSQL `FOR NO KEY UPDATE`, the lock an `UPDATE users` takes: `FOR UPDATE` would also wait
 * for the key-share locks of rows inserted for the user (events, card checks), and two steps
 * finishing at once then deadlocked.
 */
export async function findUserLocked(trx: Executor, id: number): Promise<UserRow | undefined> {
  let query = trx.selectFrom('users').selectAll().where('id', '=', id);
  if (isPostgres(trx)) query = query.forNoKeyUpdate();
  return query.executeTakeFirst();
}

/** Moves the user's status from `from` to `to`, only if it still is `from`: false when another change came first. */
export async function changeUserStatus(ex: Executor, id: number, from: string, to: string, now: string): Promise<boolean> {
  const result = await ex.updateTable('users').set({ status: to, updated_at: now }).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The columns of a user that the API's user object (spec 2.1) is made from. */
export const USER_VIEW_COLUMNS = [
  'id',
  'uuid',
  'first_name',
  'last_name',
  'username',
  'email',
  'phone',
  'avatar',
  'address',
  'country_id',
  'role_id',
  'status',
  'birthday',
  'last_login',
  'two_factor_country_code',
  'two_factor_phone',
  'two_factor_options',
  'email_verified_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof UserRow)[];
export type UserViewRow = Pick<UserRow, (typeof USER_VIEW_COLUMNS)[number]>;
export type VerificationViewRow = Pick<UserVerificationRow, 'user_id' | 'method_id' | 'status' | 'position'>;

/**
 * A user and their verifications in one statement (one row per verification, or one row with
 * nulls when there are none): `GET /api/users/{id}` is the hottest read of the API (issue 2).
 */
const userForViewStatement = new HotStatement<UserViewRow & { v_method_id: number | null; v_status: number | null; v_position: number | null }>(
  `select ${USER_VIEW_COLUMNS.map((c) => `u.${c}`).join(', ')}, v.method_id as v_method_id, v.status as v_status, v.position as v_position
   from users u left join user_verifications v on v.user_id = u.id where u.id = ?`,
);

export async function findUserForView(ex: Executor, id: number): Promise<{ user: UserViewRow; verifications: VerificationViewRow[] } | undefined> {
  const rows = await userForViewStatement.all(ex, [id]);
  const first = rows[0];
  if (!first) return undefined;
  const verifications: VerificationViewRow[] = [];
  for (const r of rows) {
    if (r.v_method_id !== null) verifications.push({ user_id: first.id, method_id: r.v_method_id, status: r.v_status!, position: r.v_position! });
  }
  // Sorted here rather than by SQLite, which would need a temporary B-tree for a handful of rows.
  verifications.sort((a, b) => a.position - b.position);
  return { user: first, verifications };
}

/** The names an avatar is drawn from, by the user's public uuid. */
export function findAvatarNames(ex: Executor, uuid: string): Promise<Pick<UserRow, 'first_name' | 'last_name' | 'email'> | undefined> {
  return ex.selectFrom('users').select(['first_name', 'last_name', 'email']).where('uuid', '=', uuid).executeTakeFirst();
}

export function findUserByReference(ex: Executor, referenceId: string): Promise<UserRow | undefined> {
  return ex.selectFrom('users').selectAll().where('reference_id', '=', referenceId).orderBy('id', 'desc').executeTakeFirst();
}

export function findUserByLinkKey(ex: Executor, linkKey: string): Promise<UserRow | undefined> {
  return ex.selectFrom('users').selectAll().where('link_key', '=', linkKey).executeTakeFirst();
}

export async function usernameTaken(ex: Executor, username: string, exceptId?: number): Promise<boolean> {
  const found = exceptId === undefined ? await usernameStatement.first(ex, [username]) : await usernameExceptStatement.first(ex, [username, exceptId]);
  return found !== undefined;
}

/** True for a username taken by a concurrent transaction between its `usernameTaken` check and its write. */
export function isUsernameConflict(error: unknown): boolean {
  return isUniqueViolation(error, 'users', 'username');
}

export async function updateUserRow(ex: Executor, id: number, patch: UserUpdate): Promise<void> {
  await ex.updateTable('users').set(patch).where('id', '=', id).execute();
}

/** Stamps the time the user's e-mail address was proven, once: a later proof keeps the first time. */
export async function stampEmailVerified(ex: Executor, id: number, now: string): Promise<void> {
  await ex.updateTable('users').set({ email_verified_at: now }).where('id', '=', id).where('email_verified_at', 'is', null).execute();
}

export async function deleteUserRow(ex: Executor, id: number): Promise<boolean> {
  const result = await ex.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** One page of users and the total matching the filters (spec 4.1, 4.17). */
export async function listUsers(ex: Executor, q: UserListQuery): Promise<{ rows: UserRow[]; total: number }> {
  if (q.search && isPostgres(ex as Kysely<unknown>)) return searchUsersOnPostgres(ex, { ...q, search: q.search });
  if (q.search && q.search.length >= TRIGRAM) return searchUsersOnSqlite(ex, { ...q, search: q.search });
  let base = ex.selectFrom('users');
  if (q.search) {
    const pattern = likeContains(q.search);
    // Terms under three characters on SQLite: a scan, with Unicode case folding only when the term needs it.
    const lower = sql.raw(lowerFor(q.search));
    base = base.where((eb) => eb.or(SEARCHED_COLUMNS.map((col) => sql<boolean>`${lower}(${sql.ref(col)}) like ${pattern} escape '\\'`)));
  }
  if (q.email) base = base.where(sql`lower(email)`, '=', q.email.toLowerCase());
  if (q.status) base = base.where(sql`lower(status)`, '=', q.status.toLowerCase());
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
  const direction = q.descending ? 'desc' : 'asc';
  let pageQuery = base.selectAll().orderBy(sql.raw(sortExpression(q.sort)), direction);
  // A stable tiebreaker keeps pages from overlapping when sort values repeat.
  if (q.sort !== 'id') pageQuery = pageQuery.orderBy('id', direction);
  const rows = await pageQuery
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .execute();
  return { rows, total };
}

/** The user's verification of one method, or undefined when the method is not assigned to them. */
export function findUserVerification(ex: Executor, userId: number, methodId: number): Promise<UserVerificationRow | undefined> {
  return ex.selectFrom('user_verifications').selectAll().where('user_id', '=', userId).where('method_id', '=', methodId).executeTakeFirst();
}

export function verificationsForUsers(ex: Executor, userIds: readonly number[]): Promise<UserVerificationRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  if (userIds.length === 1) return verificationsOfUserStatement.all(ex, userIds);
  if (userIds.length <= USERS_PER_VERIFICATIONS_READ) return verificationsOfUsersStatement(userIds.length).all(ex, userIds);
  return verificationsInChunks(ex, userIds);
}

async function verificationsInChunks(ex: Executor, userIds: readonly number[]): Promise<UserVerificationRow[]> {
  const rows: UserVerificationRow[] = [];
  for (let start = 0; start < userIds.length; start += USERS_PER_VERIFICATIONS_READ) {
    const chunk = userIds.slice(start, start + USERS_PER_VERIFICATIONS_READ);
    rows.push(...(await verificationsOfUsersStatement(chunk.length).all(ex, chunk)));
  }
  return rows.sort((a, b) => a.user_id - b.user_id || a.position - b.position);
}

export function workflowsForUser(ex: Executor, userId: number): Promise<(UserWorkflowRow & { public_id: string })[]> {
  return ex
    .selectFrom('user_workflows')
    .innerJoin('workflows', 'workflows.raw_id', 'user_workflows.workflow_raw_id')
    .selectAll('user_workflows')
    .select('workflows.public_id')
    .where('user_workflows.user_id', '=', userId)
    .orderBy('workflows.raw_id')
    .execute();
}

/** Removes every method and workflow assigned to a user (before a template is given anew). */
export async function clearAssignments(ex: Executor, userId: number): Promise<void> {
  await ex.deleteFrom('user_verifications').where('user_id', '=', userId).execute();
  await ex.deleteFrom('user_workflows').where('user_id', '=', userId).execute();
}

/** Assigns document workflows to a user, all at `status`. */
export async function insertUserWorkflows(ex: Executor, userId: number, workflowRawIds: readonly number[], status: number, now: string): Promise<void> {
  if (!workflowRawIds.length) return;
  await ex
    .insertInto('user_workflows')
    .values(workflowRawIds.map((workflow_raw_id) => ({ user_id: userId, workflow_raw_id, status, remarks: null, completed_at: null, updated_at: now })))
    .execute();
}

/** Who these users are, by id (names and e-mail), for pages that link to them. */
export function userLabels(ex: Executor, ids: readonly number[]): Promise<Pick<UserRow, 'id' | 'email' | 'first_name' | 'last_name'>[]> {
  return ex
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name'])
    .where('id', 'in', [...ids])
    .execute();
}

/** How many users have each status. */
export function userCountsByStatus(ex: Executor): Promise<{ status: string; n: number }[]> {
  return ex
    .selectFrom('users')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
}
