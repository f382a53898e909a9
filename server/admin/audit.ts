import type { FastifyRequest } from 'fastify';
import type { Executor } from '../store/database.js';
import type { Clock } from '../clock.js';
import { insertAuditRow, pageAuditRows } from './audit-repo.js';

/** One audit record as the dashboard shows it. */
export interface AuditEntry {
  id: number;
  admin_id: number | null;
  admin_email: string;
  action: string;
  target_type: string;
  target_id: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  created_at: string;
}

export interface AuditInput {
  action: string;
  targetType: string;
  targetId?: string | number | null;
  /** Ids, counts and names of changed fields: never PII values, codes, keys or secrets. */
  details?: Record<string, unknown>;
  /** Who acted, when not the signed-in admin of the request (an invited admin accepting). */
  actor?: { id: number | null; email: string };
}

/**
 * Records who did what and when. Every audited admin action calls it with the transaction of its
 * change (services take an `audit` callback for this), so a change and its record are committed
 * together or not at all: a change that rolls back leaves no record, and a record that cannot be
 * written rolls the change back. Actions that only disclose something (a secret revealed, a body
 * unmasked) write their record before the answer is sent, so nothing is shown unrecorded.
 */
// `req` is the admin's request, or what the CLI has of one (no admin, no address).
export async function recordAudit(
  ex: Executor,
  clock: Clock,
  req: Pick<FastifyRequest, 'admin'> & { ip?: string | undefined },
  input: AuditInput,
): Promise<void> {
  const admin = input.actor ?? req.admin;
  await insertAuditRow(ex, {
    admin_id: admin?.id ?? null,
    admin_email: admin?.email ?? 'system',
    action: input.action,
    target_type: input.targetType,
    target_id: input.targetId === undefined || input.targetId === null ? null : String(input.targetId),
    details: JSON.stringify(input.details ?? {}),
    ip: req.ip ?? null,
    created_at: clock.now().toISOString(),
  });
}

/** One page of the audit log, newest first. */
export async function listAudit(
  ex: Executor,
  q: { page: number; perPage: number; action?: string | undefined; targetType?: string | undefined; targetId?: string | undefined },
): Promise<{ data: AuditEntry[]; total: number }> {
  const { rows, total } = await pageAuditRows(ex, q);
  return {
    total,
    data: rows.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> })),
  };
}
