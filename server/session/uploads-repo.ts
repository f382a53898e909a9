import type { Insertable, Selectable, Updateable } from 'kysely';
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

/** A method's own upload (a face frame, a recording): no document type or side. */
export type MethodUpload = Omit<Insertable<SessionUploadTable>, 'document_type' | 'side'>;

/**
 * Stores a method's upload in place of the `replaced` ones (a retaken frame, a new recording);
 * call it inside the caller's transaction so the swap is all or nothing.
 */
export async function replaceUploads(ex: Executor, replaced: readonly Pick<SessionUpload, 'id'>[], row: MethodUpload): Promise<void> {
  await deleteUploads(
    ex,
    replaced.map((r) => r.id),
  );
  await insertUpload(ex, { ...row, document_type: null, side: null });
}

export async function deleteUploads(ex: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await sdb(ex).deleteFrom('session_uploads').where('id', 'in', ids).execute();
}

/** Where one upload is stored and what it is (the dashboard shows captured images by id). */
export function findUploadBlob(ex: Executor, id: string): Promise<Pick<SessionUpload, 'blob_key' | 'media_type'> | undefined> {
  return sdb(ex).selectFrom('session_uploads').select(['blob_key', 'media_type']).where('id', '=', id).executeTakeFirst();
}

/** Points every upload stored at `blobKey` at its replacement (the analysis keeps a metadata-free derivative). */
export async function repointUploads(
  ex: Executor,
  blobKey: string,
  next: Pick<Updateable<SessionUploadTable>, 'blob_key' | 'media_type' | 'size'>,
): Promise<void> {
  await sdb(ex).updateTable('session_uploads').set(next).where('blob_key', '=', blobKey).execute();
}

/** Uploads stored before `before`, at most `limit` (the retention rule deletes them). */
export function uploadsBefore(ex: Executor, before: string, limit: number): Promise<Pick<SessionUpload, 'id' | 'blob_key'>[]> {
  return sdb(ex).selectFrom('session_uploads').select(['id', 'blob_key']).where('created_at', '<', before).limit(limit).execute();
}

/** A user's newest uploads, at most `limit` (the dashboard's user page lists them). */
export function recentUploadsOf(
  ex: Executor,
  userId: number,
  limit: number,
): Promise<Pick<SessionUpload, 'id' | 'method_key' | 'document_type' | 'side' | 'step' | 'media_type' | 'size' | 'created_at'>[]> {
  return sdb(ex)
    .selectFrom('session_uploads')
    .select(['id', 'method_key', 'document_type', 'side', 'step', 'media_type', 'size', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
