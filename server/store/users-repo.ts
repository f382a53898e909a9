import { sql, type Kysely } from 'kysely';
import { isPostgres } from './migrations/helpers.js';
import type { Executor } from './database.js';
import type { NewUser, UserRow, UserUpdate, UserVerificationRow, UserWorkflowRow } from './schema.js';

export const SORTABLE_USER_FIELDS = ['id', 'first_name', 'last_name', 'email', 'created_at', 'updated_at'] as const;
export type UserSortField = (typeof SORTABLE_USER_FIELDS)[number];

export interface UserListQuery {
  search?: string | undefined;
  email?: string | undefined;
  status?: string | undefined;
  sort: UserSortField;
  descending: boolean;
  page: number;
  perPage: number;
}

export function insertUser(ex: Executor, user: NewUser): Promise<UserRow> {
  return ex.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export function findUserById(ex: Executor, id: number): Promise<UserRow | undefined> {
  return ex.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByReference(ex: Executor, referenceId: string): Promise<UserRow | undefined> {
  return ex.selectFrom('users').selectAll().where('reference_id', '=', referenceId).orderBy('id', 'desc').executeTakeFirst();
}

export function findUserByLinkKey(ex: Executor, linkKey: string): Promise<UserRow | undefined> {
  return ex.selectFrom('users').selectAll().where('link_key', '=', linkKey).executeTakeFirst();
}

export async function usernameTaken(ex: Executor, username: string, exceptId?: number): Promise<boolean> {
  let q = ex.selectFrom('users').select('id').where('username', '=', username);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function updateUserRow(ex: Executor, id: number, patch: UserUpdate): Promise<void> {
  await ex.updateTable('users').set(patch).where('id', '=', id).execute();
}

export async function deleteUserRow(ex: Executor, id: number): Promise<boolean> {
  const result = await ex.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Escapes LIKE wildcards so a search for `50%` means the text `50%`. */
function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Trigram indexes need three characters; shorter terms fall back to a scan. */
const TRIGRAM = 3;

/** One page of users and the total matching the filters (spec 4.1, 4.17). */
export async function listUsers(ex: Executor, q: UserListQuery): Promise<{ rows: UserRow[]; total: number }> {
  let base = ex.selectFrom('users');
  if (q.search) {
    if (q.search.length >= TRIGRAM && !isPostgres(ex as Kysely<unknown>)) {
      // FTS5 trigram: a quoted phrase matches it as a substring in any of the four columns.
      const phrase = `"${q.search.replace(/"/g, '""')}"`;
      base = base.where('id', 'in', sql<number>`(select rowid from users_search where users_search match ${phrase})`);
    } else if (isPostgres(ex as Kysely<unknown>)) {
      base = base.where(
        sql<boolean>`lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || email) like ${likeContains(q.search)} escape '\\'`,
      );
    } else {
      const pattern = likeContains(q.search);
      base = base.where((eb) =>
        eb.or(
          (['username', 'first_name', 'last_name', 'email'] as const).map(
            (col) => sql<boolean>`lower(${sql.ref(col)}) like ${pattern} escape '\\'`,
          ),
        ),
      );
    }
  }
  if (q.email) base = base.where(sql`lower(email)`, '=', q.email.toLowerCase());
  if (q.status) base = base.where(sql`lower(status)`, '=', q.status.toLowerCase());
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const direction = q.descending ? 'desc' : 'asc';
  let pageQuery = base.selectAll().orderBy(q.sort, direction);
  // A stable tiebreaker keeps pages from overlapping when sort values repeat.
  if (q.sort !== 'id') pageQuery = pageQuery.orderBy('id', direction);
  const rows = await pageQuery
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .execute();
  return { rows, total: Number(total) };
}

export function verificationsForUsers(ex: Executor, userIds: readonly number[]): Promise<UserVerificationRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('user_verifications')
    .selectAll()
    .where('user_id', 'in', [...userIds])
    .orderBy('user_id')
    .orderBy('position')
    .execute();
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
