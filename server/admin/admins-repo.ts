import type { Executor } from '../store/database.js';
import { ddb } from './tables.js';

/** An admin as the sign-in needs it: the id, the e-mail and the password hash to check. */
export interface AdminCredentials {
  id: number;
  email: string;
  password_hash: string;
}

/** The admin with this e-mail, compared case-insensitively (an address is typed as people remember it). */
export function findAdminByEmail(ex: Executor, email: string): Promise<AdminCredentials | undefined> {
  return ex
    .selectFrom('admins')
    .select(['id', 'email', 'password_hash'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

export interface AdminListRow {
  id: number;
  email: string;
  created_at: string;
  totp_enabled_at: string | null;
}

/** One page of admins, oldest first, with whether each has turned on two-factor sign-in. */
export async function listAdminsPage(ex: Executor, page: number, perPage: number): Promise<{ rows: AdminListRow[]; total: number }> {
  const { total } = await ex
    .selectFrom('admins')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await ddb(ex)
    .selectFrom('admins')
    .leftJoin('admin_totp', 'admin_totp.admin_id', 'admins.id')
    .select(['admins.id', 'admins.email', 'admins.created_at', 'admin_totp.enabled_at as totp_enabled_at'])
    .orderBy('admins.id')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { rows, total: Number(total) };
}

/** Removes an admin; false when there was none with this id. */
export async function deleteAdmin(ex: Executor, id: number): Promise<boolean> {
  const result = await ex.deleteFrom('admins').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function anyAdminExists(ex: Executor): Promise<boolean> {
  return (await ex.selectFrom('admins').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Adds an admin unless one has the e-mail already; false when it was there (another process won). */
export async function insertAdminIfNew(ex: Executor, row: { email: string; password_hash: string; created_at: string }): Promise<boolean> {
  const inserted = await ex
    .insertInto('admins')
    .values(row)
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}
