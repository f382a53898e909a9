import type { Insertable } from 'kysely';
import type { Executor } from '../store/database.js';
import { dupdb, type DuplicateFlagTable, type IdentityMarkTable } from './tables.js';

/** A flag as results and the case page read it. */
export type FlagRow = Pick<DuplicateFlagTable, 'user_id' | 'method_id' | 'other_user_id' | 'other_method_id' | 'kind' | 'score' | 'role' | 'created_at'>;

const FLAG_COLUMNS = ['user_id', 'method_id', 'other_user_id', 'other_method_id', 'kind', 'score', 'role', 'created_at'] as const;

/** Replaces the marks one capture of a user left (a retry replaces its own). */
export async function replaceCaptureMarks(ex: Executor, userId: number, source: string, rows: readonly Insertable<IdentityMarkTable>[]): Promise<void> {
  const db = dupdb(ex);
  await db.deleteFrom('identity_marks').where('user_id', '=', userId).where('source', '=', source).execute();
  if (rows.length)
    await db
      .insertInto('identity_marks')
      .values([...rows])
      .execute();
}

/** Other users' verifications that left one of these document digests. */
export function otherDocumentMarks(ex: Executor, userId: number, digests: readonly string[]): Promise<{ user_id: number; method_id: number }[]> {
  return dupdb(ex)
    .selectFrom('identity_marks')
    .select(['user_id', 'method_id'])
    .where('kind', '=', 'document')
    .where('digest', 'in', [...digests])
    .where('user_id', '!=', userId)
    .execute();
}

/** One page of other users' face marks of a descriptor model, by id after `after`. */
export function otherFaceMarks(
  ex: Executor,
  userId: number,
  model: string,
  after: number,
  limit: number,
): Promise<{ id: number; user_id: number; method_id: number; vector: string | null }[]> {
  return dupdb(ex)
    .selectFrom('identity_marks')
    .select(['id', 'user_id', 'method_id', 'vector'])
    .where('kind', '=', 'face')
    .where('model', '=', model)
    .where('user_id', '!=', userId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Inserts flags, skipping pairs already flagged; returns the rows that are new. */
export function insertNewFlags(
  ex: Executor,
  rows: readonly Insertable<DuplicateFlagTable>[],
): Promise<Pick<DuplicateFlagTable, 'user_id' | 'method_id' | 'other_user_id' | 'kind' | 'score'>[]> {
  return dupdb(ex)
    .insertInto('duplicate_flags')
    .values([...rows])
    .onConflict((oc) => oc.columns(['user_id', 'method_id', 'other_user_id', 'other_method_id', 'kind']).doNothing())
    .returning(['user_id', 'method_id', 'other_user_id', 'kind', 'score'])
    .execute();
}

/** The flags on a user's verifications (one method's with `methodId`), oldest first. */
export function flagRowsOf(ex: Executor, userId: number, methodId?: number): Promise<FlagRow[]> {
  let q = dupdb(ex).selectFrom('duplicate_flags').select(FLAG_COLUMNS).where('user_id', '=', userId);
  if (methodId !== undefined) q = q.where('method_id', '=', methodId);
  return q.orderBy('id').execute();
}

/** The flags on these users' verifications, oldest first. */
export function flagRowsOfUsers(ex: Executor, userIds: readonly number[]): Promise<FlagRow[]> {
  return dupdb(ex)
    .selectFrom('duplicate_flags')
    .select(FLAG_COLUMNS)
    .where('user_id', 'in', [...userIds])
    .orderBy('id')
    .execute();
}

/** User-deletion hook: the user's marks, and every flag naming them on either side. */
export async function deleteDuplicateDataOf(trx: Executor, userId: number): Promise<void> {
  const db = dupdb(trx);
  await db.deleteFrom('identity_marks').where('user_id', '=', userId).execute();
  await db
    .deleteFrom('duplicate_flags')
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('other_user_id', '=', userId)]))
    .execute();
}
