import type { FastifyRequest } from 'fastify';
import type { Generated, Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../store/schema.js';
import type { Executor } from '../store/database.js';
import { recordAudit } from './audit.js';

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

/** A note as the case page shows it. */
export interface ReviewNote {
  id: number;
  author: string;
  body: string;
  created_at: string;
}

type NotesExecutor = Kysely<Database & ReviewNoteTables> | Transaction<Database & ReviewNoteTables>;
const ndb = (ex: Executor) => ex.withTables<ReviewNoteTables>() as NotesExecutor;

/** The most recent notes on a user's case, newest first. */
export async function notesOf(ex: Executor, userId: number, limit = 100): Promise<ReviewNote[]> {
  const rows = await ndb(ex).selectFrom('review_notes').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, author: r.admin_email, body: r.body, created_at: r.created_at }));
}

/**
 * Adds a reviewer's note to a user's case with its audit record in one transaction. The audit
 * record names the note, not its text (the text is about a person and goes with the user).
 */
export async function addNote(ex: Kysely<Database>, clock: Clock, req: FastifyRequest, userId: number, body: string): Promise<ReviewNote> {
  return ex.transaction().execute(async (trx) => {
    const author = req.admin?.email ?? 'system';
    const row = await ndb(trx)
      .insertInto('review_notes')
      .values({ user_id: userId, admin_id: req.admin?.id ?? null, admin_email: author, body, created_at: clock.now().toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, clock, req, { action: 'user.note', targetType: 'user', targetId: userId, details: { note_id: row.id } });
    return { id: row.id, author, body: row.body, created_at: row.created_at };
  });
}

/** User-deletion hook: a deleted user's case notes go with them. */
export async function deleteNotesOf(trx: Executor, userId: number): Promise<void> {
  await ndb(trx).deleteFrom('review_notes').where('user_id', '=', userId).execute();
}
