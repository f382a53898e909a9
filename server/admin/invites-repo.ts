import type { Selectable } from 'kysely';
import type { Executor } from '../store/database.js';
import { ddb, type AdminInviteTable } from './tables.js';

export type AdminInviteRow = Selectable<AdminInviteTable>;

export async function insertInvite(
  ex: Executor,
  row: { tokenHash: string; email: string; invitedBy: number; createdAt: string; expiresAt: string },
): Promise<void> {
  await ddb(ex)
    .insertInto('admin_invites')
    .values({ token_hash: row.tokenHash, email: row.email, invited_by: row.invitedBy, created_at: row.createdAt, expires_at: row.expiresAt, used_at: null })
    .execute();
}

/** The invitation a token names (by the token's SHA-256). */
export function findInvite(ex: Executor, tokenHash: string): Promise<AdminInviteRow | undefined> {
  return ddb(ex).selectFrom('admin_invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks an unused invitation used, in the statement that checks it is unused: false when another accept came first. */
export async function claimInvite(ex: Executor, tokenHash: string, now: string): Promise<boolean> {
  const claimed = await ddb(ex)
    .updateTable('admin_invites')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

export async function adminExists(ex: Executor, email: string): Promise<boolean> {
  return (await ex.selectFrom('admins').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;
}

export async function insertAdmin(ex: Executor, email: string, passwordHash: string, now: string): Promise<number> {
  const { id } = await ex.insertInto('admins').values({ email, password_hash: passwordHash, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return id;
}
