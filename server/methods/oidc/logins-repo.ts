import type { Executor } from '../../store/database.js';
import { odb, type OidcLoginTable } from './tables.js';

export type OidcLoginRow = Omit<OidcLoginTable, 'id'> & { id: number };
export type NewOidcLogin = Omit<OidcLoginTable, 'id' | 'binding_hash' | 'begun_at' | 'finished_at' | 'outcome'>;

export async function insertLogin(ex: Executor, login: NewOidcLogin): Promise<number> {
  const { id } = await odb(ex)
    .insertInto('oidc_logins')
    .values({ ...login, binding_hash: null, begun_at: null, finished_at: null, outcome: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function findLoginByBegin(ex: Executor, beginHash: string): Promise<OidcLoginRow | undefined> {
  return odb(ex).selectFrom('oidc_logins').selectAll().where('begin_hash', '=', beginHash).executeTakeFirst();
}

export async function findLoginByState(ex: Executor, stateHash: string): Promise<OidcLoginRow | undefined> {
  return odb(ex).selectFrom('oidc_logins').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
}

/** Binds the sign-in to the browser that opened it, once: false when it was opened already or is over. */
export async function markBegun(ex: Executor, id: number, bindingHash: string, now: Date): Promise<boolean> {
  const res = await odb(ex)
    .updateTable('oidc_logins')
    .set({ binding_hash: bindingHash, begun_at: now.toISOString() })
    .where('id', '=', id)
    .where('begun_at', 'is', null)
    .where('finished_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Ends a sign-in with its outcome, once: false when another request ended it first (a replayed or
 * doubled callback, a cancel racing the callback). Claimed before the code is exchanged, so one
 * callback at most exchanges it.
 */
export async function finishLogin(ex: Executor, id: number, outcome: string, now: Date): Promise<boolean> {
  const res = await odb(ex)
    .updateTable('oidc_logins')
    .set({ finished_at: now.toISOString(), outcome })
    .where('id', '=', id)
    .where('finished_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Changes the outcome of a sign-in this request claimed (`claimed` → what the exchange came to). */
export async function setOutcome(ex: Executor, id: number, outcome: string): Promise<void> {
  await odb(ex).updateTable('oidc_logins').set({ outcome }).where('id', '=', id).execute();
}

/** The user's latest sign-in for a step, started at or after `since` when given. */
export async function latestLogin(ex: Executor, userId: number, methodKey: string, since: string | null = null): Promise<OidcLoginRow | undefined> {
  let q = odb(ex).selectFrom('oidc_logins').selectAll().where('user_id', '=', userId).where('method_key', '=', methodKey);
  if (since !== null) q = q.where('created_at', '>=', since);
  return q.orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** Sign-ins the user started for a step since `since` (the hourly limit). */
export async function countLoginsSince(ex: Executor, userId: number, methodKey: string, since: Date): Promise<{ count: number; oldest: string | null }> {
  const rows = await odb(ex)
    .selectFrom('oidc_logins')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('method_key', '=', methodKey)
    .where('created_at', '>', since.toISOString())
    .orderBy('created_at')
    .execute();
  return { count: rows.length, oldest: rows[0]?.created_at ?? null };
}

/** Ends the user's pending sign-ins of a step (a new one replaces them; the user cancelled). */
export async function endPendingLogins(ex: Executor, userId: number, methodKey: string, outcome: string, now: Date): Promise<void> {
  await odb(ex)
    .updateTable('oidc_logins')
    .set({ finished_at: now.toISOString(), outcome })
    .where('user_id', '=', userId)
    .where('method_key', '=', methodKey)
    .where('finished_at', 'is', null)
    .execute();
}

/** Deletes a user's sign-ins that ended or expired before `cutoff`. */
export async function pruneLogins(ex: Executor, userId: number, cutoff: Date): Promise<void> {
  await odb(ex)
    .deleteFrom('oidc_logins')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('finished_at', '<', cutoff.toISOString()), eb('expires_at', '<', cutoff.toISOString())]))
    .execute();
}

/** A user's sign-ins go with the user (the foreign key cascades too; explicit deletes keep every database alike). */
export async function deleteUserLogins(ex: Executor, userId: number): Promise<void> {
  await odb(ex).deleteFrom('oidc_logins').where('user_id', '=', userId).execute();
}

/** A step's sign-ins of a user (a reset starts the step over). */
export async function deleteStepLogins(ex: Executor, userId: number, methodKey: string): Promise<void> {
  await odb(ex).deleteFrom('oidc_logins').where('user_id', '=', userId).where('method_key', '=', methodKey).execute();
}
