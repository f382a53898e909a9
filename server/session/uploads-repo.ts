import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../store/database.js';
import { sdb, type SessionUploadTable } from './tables.js';

/** One stored upload of a method (a document side or a face frame). */
export type SessionUpload = Selectable<SessionUploadTable>;

export async function insertUpload(ex: Executor, row: Insertable<SessionUploadTable>): Promise<void> {
  await sdb(ex).insertInto('session_uploads').values(row).execute();
}

/** The user's uploads for a method, newest first. */
export async function uploadsOf(ex: Executor, userId: number, methodKey: string): Promise<SessionUpload[]> {
  return sdb(ex)
    .selectFrom('session_uploads')
    .selectAll()
    .where('user_id', '=', userId)
    .where('method_key', '=', methodKey)
    .orderBy('created_at', 'desc')
    .execute();
}

/** The user's uploads for one challenge of a method (a face or video challenge's frames, the recording). */
export async function uploadsOfChallenge(ex: Executor, userId: number, methodKey: string, challengeId: string): Promise<SessionUpload[]> {
  return sdb(ex)
    .selectFrom('session_uploads')
    .selectAll()
    .where('user_id', '=', userId)
    .where('method_key', '=', methodKey)
    .where('challenge_id', '=', challengeId)
    .execute();
}

export async function deleteUploads(ex: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await sdb(ex).deleteFrom('session_uploads').where('id', 'in', ids).execute();
}

/** Where one upload is stored and what it is (the dashboard shows captured images by id). */
export function findUploadBlob(ex: Executor, id: string): Promise<Pick<SessionUpload, 'blob_key' | 'media_type'> | undefined> {
  return sdb(ex).selectFrom('session_uploads').select(['blob_key', 'media_type']).where('id', '=', id).executeTakeFirst();
}
