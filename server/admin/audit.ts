import type { FastifyRequest } from 'fastify';
import type { Executor } from '../store/database.js';
import type { Clock } from '../clock.js';
import { ddb } from './tables.js';

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
}

/**
 * Records who did what and when. Called inside the transaction of the change where there is one,
 * so a change and its record are written together or not at all.
 */
export async function recordAudit(ex: Executor, clock: Clock, req: FastifyRequest, input: AuditInput): Promise<void> {
  const admin = req.admin;
  await ddb(ex)
    .insertInto('audit_log')
    .values({
      admin_id: admin?.id ?? null,
      admin_email: admin?.email ?? 'system',
      action: input.action,
      target_type: input.targetType,
      target_id: input.targetId === undefined || input.targetId === null ? null : String(input.targetId),
      details: JSON.stringify(input.details ?? {}),
      ip: req.ip ?? null,
      created_at: clock.now().toISOString(),
    })
    .execute();
}

/** One page of the audit log, newest first. */
export async function listAudit(
  ex: Executor,
  q: { page: number; perPage: number; action?: string | undefined; targetType?: string | undefined; targetId?: string | undefined },
): Promise<{ data: AuditEntry[]; total: number }> {
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
  return {
    total: Number(total),
    data: rows.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> })),
  };
}

/** Webhook admin routes (server/http/admin/webhooks.ts) and the audit action each success records. */
const WEBHOOK_ACTIONS: Record<string, string> = {
  'POST /admin/api/webhooks/endpoints': 'webhook.endpoint.create',
  'PATCH /admin/api/webhooks/endpoints/:id': 'webhook.endpoint.update',
  'DELETE /admin/api/webhooks/endpoints/:id': 'webhook.endpoint.delete',
  'POST /admin/api/webhooks/endpoints/:id/secret/reveal': 'webhook.secret.reveal',
  'POST /admin/api/webhooks/endpoints/:id/secret/rotate': 'webhook.secret.rotate',
  'POST /admin/api/webhooks/endpoints/:id/test': 'webhook.test',
  'POST /admin/api/webhooks/deliveries/:id/retry': 'webhook.delivery.retry',
};

/**
 * An `onResponse` hook for the admin scope: records the webhook engineer's admin routes in the
 * audit log when they succeed (endpoint created, changed, deleted; secret revealed or rotated; test
 * sent; delivery retried), and unmasking a delivery body, without touching their handlers.
 */
export function webhookAuditHook(ctx: { db: Executor; clock: Clock; log: { error(obj: unknown, msg: string): void } }) {
  return async (req: FastifyRequest, reply: { statusCode: number }): Promise<void> => {
    if (reply.statusCode >= 400 || !req.admin) return;
    const route = req.routeOptions.url ?? '';
    const params = (req.params ?? {}) as { id?: string | number };
    let action = WEBHOOK_ACTIONS[`${req.method} ${route}`];
    if (!action && req.method === 'GET' && route === '/admin/api/webhooks/deliveries/:id' && (req.query as { reveal?: string } | undefined)?.reveal === 'true') {
      action = 'webhook.delivery.unmask';
    }
    if (!action) return;
    const targetType = route.includes('/deliveries') ? 'webhook_delivery' : 'webhook_endpoint';
    try {
      await recordAudit(ctx.db, ctx.clock, req, { action, targetType, targetId: params.id ?? null });
    } catch (error: unknown) {
      ctx.log.error({ err: error }, 'audit record failed');
    }
  };
}
