import type { Kysely, Transaction } from 'kysely';
import type { Executor } from '../../store/database.js';
import type { Database } from '../../store/schema.js';

/** The Video method's table (migration `0025-video`). */
// A type alias (not an interface) so it satisfies kysely's `withTables` index-signature constraint.
export type VideoTables = {
  video_frame_hashes: VideoFrameHashTable;
};

/** One frame sent for a video challenge, by its content's SHA-256 (hex). */
export interface VideoFrameHashTable {
  hash: string;
  user_id: number;
  challenge_id: string;
  created_at: string;
}

export type VideoExecutor = Kysely<Database & VideoTables> | Transaction<Database & VideoTables>;

/** The same connection or transaction, typed with the Video table as well. */
export function vdb(ex: Executor): VideoExecutor {
  return ex.withTables<VideoTables>() as VideoExecutor;
}
