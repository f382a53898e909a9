/**
 * What a user's uploads left behind: the rows of `session_uploads` and the files on disk, so a
 * test can assert the two match (no file without its row, no row without its file).
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ApiError } from '../../src/api/session-client.js';
import { sdb } from '../../server/session/tables.js';
import type { TestServer } from './server.js';

export interface StoredUploads {
  /** The rows: blob key, step index, step and the frame index in `meta` (when there is one). */
  rows: { blob_key: string; challenge_id: string | null; step_index: number | null; step: string | null; frame_index: number | null }[];
  /** Blob keys of the files under the user's folder (the media type files beside them left out). */
  files: string[];
}

export async function storedUploads(server: TestServer, userId: number): Promise<StoredUploads> {
  const rows = await sdb(server.verity.ctx.db)
    .selectFrom('session_uploads')
    .select(['blob_key', 'challenge_id', 'step_index', 'step', 'meta'])
    .where('user_id', '=', userId)
    .execute();
  const root = join(server.dataDir, 'blobs');
  let names: string[] = [];
  try {
    names = (await readdir(join(root, 'users', String(userId)), { recursive: true, withFileTypes: true }))
      .filter((d) => d.isFile() && !d.name.endsWith('.type') && !d.name.endsWith('.tmp'))
      .map((d) => relative(root, join(d.parentPath, d.name)));
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return {
    rows: rows.map(({ meta, ...r }) => ({ ...r, frame_index: (JSON.parse(meta) as { frame_index?: number }).frame_index ?? null })),
    files: names.sort(),
  };
}

/** The status and error type of each call, run at once ('200' for a success); anything but an API error is thrown. */
export async function atOnce(calls: readonly (() => Promise<unknown>)[]): Promise<string[]> {
  const results = await Promise.allSettled(calls.map((c) => c()));
  return results.map((r) => {
    if (r.status === 'fulfilled') return '200';
    if (r.reason instanceof ApiError) return `${r.reason.status} ${r.reason.error_type}`;
    throw r.reason;
  });
}
