import { withOwnTables } from '../../store/database.js';

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

/** The same connection or transaction, typed with the Video table as well. */
export const vdb = withOwnTables<VideoTables>();
