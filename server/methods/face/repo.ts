import type { FaceMethodKey } from '../../../src/api/contract.js';
import { sdb } from '../../session/tables.js';
import type { Executor } from '../../store/database.js';

/** Deletes every frame of the user for `key` (a new challenge replaces them). */
export async function deleteFrames(ex: Executor, userId: number, key: FaceMethodKey): Promise<void> {
  await sdb(ex).deleteFrom('session_uploads').where('user_id', '=', userId).where('method_key', '=', key).execute();
}
