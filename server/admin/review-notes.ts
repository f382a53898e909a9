import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../store/schema.js';
import type { Executor } from '../store/database.js';
import { recordAudit } from './audit.js';
import { insertNote, noteRowsOf } from './review-notes-repo.js';

/** A note as the case page shows it. */
export interface ReviewNote {
  id: number;
  author: string;
  body: string;
  created_at: string;
}

/** The most recent notes on a user's case, newest first. */
export async function notesOf(ex: Executor, userId: number, limit = 100): Promise<ReviewNote[]> {
  const rows = await noteRowsOf(ex, userId, limit);
  return rows.map((r) => ({ id: r.id, author: r.admin_email, body: r.body, created_at: r.created_at }));
}

/**
 * Adds a reviewer's note to a user's case with its audit record in one transaction. The audit
 * record names the note, not its text (the text is about a person and goes with the user).
 */
export async function addNote(ex: Kysely<Database>, clock: Clock, req: FastifyRequest, userId: number, body: string): Promise<ReviewNote> {
  return ex.transaction().execute(async (trx) => {
    const author = req.admin?.email ?? 'system';
    const row = await insertNote(trx, { user_id: userId, admin_id: req.admin?.id ?? null, admin_email: author, body, created_at: clock.now().toISOString() });
    await recordAudit(trx, clock, req, { action: 'user.note', targetType: 'user', targetId: userId, details: { note_id: row.id } });
    return { id: row.id, author, body: row.body, created_at: row.created_at };
  });
}
