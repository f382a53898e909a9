import type { Executor } from '../database.js';
import type { DocumentJobRow, UserVerificationRow } from '../schema.js';
import { sdb } from '../../session/tables.js';

/** One verification of a user, removed ones included (the caller decides what they mean). */
export function findVerificationRow(ex: Executor, userId: number, methodId: number): Promise<UserVerificationRow | undefined> {
  return ex.selectFrom('user_verifications').selectAll().where('user_id', '=', userId).where('method_id', '=', methodId).executeTakeFirst();
}

/** The user's document jobs, oldest first. */
export function documentJobsOf(ex: Executor, userId: number): Promise<DocumentJobRow[]> {
  return ex.selectFrom('document_jobs').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

/** The user's captured images of one step (session uploads), oldest first. */
export function capturesOf(
  ex: Executor,
  userId: number,
  stepKey: string,
): Promise<{ id: string; blob_key: string; media_type: string; side: string | null; step: string | null }[]> {
  return sdb(ex)
    .selectFrom('session_uploads')
    .select(['id', 'blob_key', 'media_type', 'side', 'step'])
    .where('user_id', '=', userId)
    .where('method_key', '=', stepKey)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
