import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../store/database.js';
import { cdb, type SecureCardCheckTable } from './tables.js';

export type SecureCardCheck = Selectable<SecureCardCheckTable>;

export async function insertCardCheck(ex: Executor, row: Insertable<SecureCardCheckTable>): Promise<void> {
  await cdb(ex).insertInto('secure_card_checks').values(row).execute();
}

/** The user's card checks, newest first. */
export async function cardChecksOf(ex: Executor, userId: number): Promise<SecureCardCheck[]> {
  return cdb(ex).selectFrom('secure_card_checks').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
}

/** Deletion hook: the user's card checks (their masked pictures are session uploads, deleted with the session data). */
export async function deleteSecureCardData(trx: Executor, userId: number): Promise<void> {
  await cdb(trx).deleteFrom('secure_card_checks').where('user_id', '=', userId).execute();
}
