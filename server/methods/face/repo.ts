import type { FaceMethodKey } from '../../../src/api/contract.js';
import { sdb } from '../../session/tables.js';
import type { SessionUpload } from '../../session/uploads-repo.js';
import type { Executor } from '../../store/database.js';

/** The frames stored for one challenge. */
export async function framesOf(ex: Executor, userId: number, key: FaceMethodKey, challengeId: string): Promise<SessionUpload[]> {
  return sdb(ex)
    .selectFrom('session_uploads')
    .selectAll()
    .where('user_id', '=', userId)
    .where('method_key', '=', key)
    .where('challenge_id', '=', challengeId)
    .execute();
}

/** Deletes every frame of the user for `key` (a new challenge replaces them). */
export async function deleteFrames(ex: Executor, userId: number, key: FaceMethodKey): Promise<void> {
  await sdb(ex).deleteFrom('session_uploads').where('user_id', '=', userId).where('method_key', '=', key).execute();
}
