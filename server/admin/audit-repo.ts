import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../store/database.js';
import { ddb, type AuditLogTable } from './tables.js';

export type AuditRow = Selectable<AuditLogTable>;

export async function insertAuditRow(ex: Executor, row: Insertable<AuditLogTable>): Promise<void> {
  await ddb(ex).insertInto('audit_log').values(row).execute();
}

/** One page of the audit log (filtered), newest first, and how many records match in all. */
export async function pageAuditRows(
  ex: Executor,
  q: { page: number; perPage: number; action?: string | undefined; targetType?: string | undefined; targetId?: string | undefined },
): Promise<{ rows: AuditRow[]; total: number }> {
  let base = ddb(ex).selectFrom('audit_log');
  if (q.action) base = base.where('action', '=', q.action);
  if (q.targetType) base = base.where('target_type', '=', q.targetType);
  if (q.targetId) base = base.where('target_id', '=', q.targetId);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .execute();
  return { rows, total: Number(total) };
}

/** The newest audit records about one user, at most `limit`. */
export function auditOfUser(ex: Executor, userId: number, limit: number): Promise<Pick<AuditRow, 'action' | 'admin_email' | 'details' | 'created_at'>[]> {
  return ddb(ex)
    .selectFrom('audit_log')
    .select(['action', 'admin_email', 'details', 'created_at'])
    .where('target_type', '=', 'user')
    .where('target_id', '=', String(userId))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
