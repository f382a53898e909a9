import type { Selectable } from 'kysely';
import type { Executor } from '../store/database.js';
import { ddb, type AdminTotpTable } from './tables.js';

/** The rows of an admin's TOTP second factor (table `admin_totp`). */
export type AdminTotpRow = Selectable<AdminTotpTable>;

/** Stores a fresh, not yet enabled secret (replacing any earlier set-up). */
export async function upsertPendingTotp(ex: Executor, adminId: number, sealedSecret: string, now: string): Promise<void> {
  await ddb(ex)
    .insertInto('admin_totp')
    .values({ admin_id: adminId, sealed_secret: sealedSecret, enabled_at: null, last_counter: null, created_at: now })
    .onConflict((oc) => oc.column('admin_id').doUpdateSet({ sealed_secret: sealedSecret, enabled_at: null, last_counter: null, created_at: now }))
    .execute();
}

export function findTotp(ex: Executor, adminId: number): Promise<AdminTotpRow | undefined> {
  return ddb(ex).selectFrom('admin_totp').selectAll().where('admin_id', '=', adminId).executeTakeFirst();
}

/**
 * Moves the last used step to `counter` when it is later than the one stored: the check and the
 * write are one statement, so of two requests with the same code one claims it. True when claimed.
 */
export async function claimTotpStep(ex: Executor, adminId: number, counter: number): Promise<boolean> {
  const claimed = await ddb(ex)
    .updateTable('admin_totp')
    .set({ last_counter: counter })
    .where('admin_id', '=', adminId)
    .where((eb) => eb.or([eb('last_counter', 'is', null), eb('last_counter', '<', counter)]))
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

export async function markTotpEnabled(ex: Executor, adminId: number, now: string): Promise<void> {
  await ddb(ex).updateTable('admin_totp').set({ enabled_at: now }).where('admin_id', '=', adminId).execute();
}

export async function deleteTotp(ex: Executor, adminId: number): Promise<void> {
  await ddb(ex).deleteFrom('admin_totp').where('admin_id', '=', adminId).execute();
}
