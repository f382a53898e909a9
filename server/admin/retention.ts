import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { deleteUser, eraseFromFiles } from '../services/users.js';
import { deleteUploads, uploadsBefore } from '../session/uploads-repo.js';
import { readDashboardSettings } from './dashboard-settings.js';
import { staleSignupUsers } from './signup-requests-repo.js';

/** How often the dashboard's retention rules run in each server process. */
export const RETENTION_INTERVAL_MS = 60 * 60_000;
const BATCH = 200;

/**
 * The retention periods set in the dashboard: captured images older than `images_days` are
 * deleted (blob and record), and self-signups whose e-mail code was never confirmed are deleted
 * with their user after `unconfirmed_signup_days`. Idempotent, so several processes may run it.
 * Returns what was removed.
 */
export async function applyRetention(ctx: AppContext): Promise<{ images: number; signups: number }> {
  const { retention } = await readDashboardSettings(ctx.db);
  const now = ctx.clock.now().getTime();
  let images = 0;
  if (retention.images_days !== null) {
    const before = new Date(now - retention.images_days * 86_400_000).toISOString();
    for (;;) {
      const old = await uploadsBefore(ctx.db, before, BATCH);
      if (old.length === 0) break;
      for (const u of old) await ctx.blobs.delete(u.blob_key);
      await deleteUploads(
        ctx.db,
        old.map((u) => u.id),
      );
      images += old.length;
      if (old.length < BATCH) break;
    }
  }
  const before = new Date(now - retention.unconfirmed_signup_days * 86_400_000).toISOString();
  const stale = await staleSignupUsers(ctx.db, before, BATCH);
  let signups = 0;
  for (const s of stale) {
    try {
      // One WAL truncation for the batch, below, rather than one per user.
      await deleteUser(ctx, s.user_id, { eraseFromFiles: false });
      signups++;
    } catch (error: unknown) {
      // Already deleted by someone else: nothing left to do.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  if (signups > 0) await eraseFromFiles(ctx);
  return { images, signups };
}
