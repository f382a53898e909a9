import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Executor } from '../store/database.js';

/** Table of migration `0021-review-notes`. */
export type ReviewNoteTables = { review_notes: ReviewNoteTable };

export interface ReviewNoteTable {
  id: Generated<number>;
  user_id: number;
  admin_id: number | null;
  /** As it was when written, so the note reads the same after the admin is gone. */
  admin_email: string;
  body: string;
  created_at: string;
}

export type ReviewNoteRow = Selectable<ReviewNoteTable>;

type NotesExecutor = Kysely<Database & ReviewNoteTables> | Transaction<Database & ReviewNoteTables>;
const ndb = (ex: Executor) => ex.withTables<ReviewNoteTables>() as NotesExecutor;

/** The most recent notes on a user's case, newest first. */
export function noteRowsOf(ex: Executor, userId: number, limit: number): Promise<ReviewNoteRow[]> {
  return ndb(ex).selectFrom('review_notes').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).execute();
}

export function insertNote(ex: Executor, row: Insertable<ReviewNoteTable>): Promise<ReviewNoteRow> {
  return ndb(ex).insertInto('review_notes').values(row).returningAll().executeTakeFirstOrThrow();
}

/** User-deletion hook: a deleted user's case notes go with them. */
export async function deleteNotesOf(trx: Executor, userId: number): Promise<void> {
  await ndb(trx).deleteFrom('review_notes').where('user_id', '=', userId).execute();
}
