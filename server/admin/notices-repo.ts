import type { Executor } from '../store/database.js';
import type { AdminNoticeRow } from './schema.js';

/** Records an admin notice that the dashboard shows (e.g. an endpoint was turned off). */
export async function recordNotice(ex: Executor, kind: string, message: string, details: object, now: Date): Promise<void> {
  await ex
    .insertInto('admin_notices')
    .values({ kind, message, details: JSON.stringify(details), created_at: now.toISOString(), read_at: null })
    .execute();
}

/** Marks a notice read; false when there is no such notice (reading one twice is fine). */
export async function markNoticeRead(ex: Executor, id: number, now: Date): Promise<boolean> {
  const r = await ex.updateTable('admin_notices').set({ read_at: now.toISOString() }).where('id', '=', id).where('read_at', 'is', null).executeTakeFirst();
  if (Number(r.numUpdatedRows) > 0) return true;
  return (await ex.selectFrom('admin_notices').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The newest 100 notices, or the newest 100 unread ones. */
export function listNotices(ex: Executor, onlyUnread: boolean): Promise<AdminNoticeRow[]> {
  return ex
    .selectFrom('admin_notices')
    .selectAll()
    .$if(onlyUnread, (q) => q.where('read_at', 'is', null))
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}
