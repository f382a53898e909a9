import { sql } from 'kysely';
import { isPostgres } from '../../store/migrations/helpers.js';
import { sdb } from '../../session/tables.js';
import type { SessionUpload } from '../../session/uploads-repo.js';
import type { Executor } from '../../store/database.js';
import { vdb } from './tables.js';

/** The method key the video's uploads are stored under. */
export const VIDEO_KEY = 'video';
/** `session_uploads.step` of a sampled frame and of the recording. */
export const UPLOAD_KIND = { frame: 'frame', recording: 'recording' } as const;

/** The uploads of the user's video challenges other than `keep` (a new challenge replaces them). */
export async function uploadsNotOf(ex: Executor, userId: number, keep: string | null): Promise<SessionUpload[]> {
  let q = sdb(ex).selectFrom('session_uploads').selectAll().where('user_id', '=', userId).where('method_key', '=', VIDEO_KEY);
  if (keep !== null) q = q.where('challenge_id', '!=', keep);
  return q.execute();
}

/**
 * The challenge a frame with this content was first sent for, if any (any user's). With `locked`,
 * inside the transaction that remembers it: on PostgreSQL the content's hash is held until the
 * commit (an advisory transaction lock; the frame may be any user's, so no row of theirs is there
 * to lock), so the same frame sent at once for two challenges is taken for one; SQLite runs one
 * transaction at a time.
 */
export async function challengeOfFrame(ex: Executor, hash: string, locked = false): Promise<string | undefined> {
  if (locked && isPostgres(ex)) await sql`select pg_advisory_xact_lock(hashtextextended(${hash}, 0))`.execute(ex);
  const row = await vdb(ex).selectFrom('video_frame_hashes').select('challenge_id').where('hash', '=', hash).executeTakeFirst();
  return row?.challenge_id;
}

export async function rememberFrame(ex: Executor, row: { hash: string; user_id: number; challenge_id: string; created_at: string }): Promise<void> {
  await vdb(ex).insertInto('video_frame_hashes').values(row).execute();
}

/** The Video method's own rows of a user (its uploads go with the session core's). */
export async function deleteVideoData(ex: Executor, userId: number): Promise<void> {
  await vdb(ex).deleteFrom('video_frame_hashes').where('user_id', '=', userId).execute();
}
