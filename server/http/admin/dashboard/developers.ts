import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listAudit, recordAudit } from '../../../admin/audit.js';
import type { AppContext } from '../../../context.js';
import { errors } from '../../../errors.js';
import { outboxPage } from '../../../notify/outbox.js';
import { createApiKey, listApiKeysPage, revokeApiKey } from '../../../store/repos/api-keys-repo.js';
import { DEFAULT_PAGE_SIZE, idParam, pageMeta, pageQuery } from './common.js';
import { Done } from '../../../../src/api/admin/common.js';
import { ApiKeysPage, AuditPage, CreatedApiKey, OutboxPage } from '../../../../src/api/admin/developers.js';

/**
 * Developer settings (API keys: create once, list, revoke), the outbox of e-mails and texts of the
 * embedded default and the audit log (captured images: `./images.ts`).
 */
export function dashboardDeveloperRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/admin/api/api-keys',
      { schema: { hide: true, querystring: pageQuery.extend({ revoked: z.enum(['true', 'false']).optional() }), response: { 200: ApiKeysPage } } },
      async (req) => {
        const page = req.query.page ?? 1;
        const perPage = req.query.per_page ?? DEFAULT_PAGE_SIZE;
        const revoked = req.query.revoked === undefined ? undefined : req.query.revoked === 'true';
        const { rows, total } = await listApiKeysPage(ctx.db, { revoked, page, perPage });
        return { data: rows, meta: pageMeta(page, perPage, total) };
      },
    );

    app.post(
      '/admin/api/api-keys',
      { schema: { hide: true, body: z.object({ name: z.string().trim().min(1).max(100) }), response: { 201: CreatedApiKey } } },
      async (req, reply) => {
        const created = await ctx.db.transaction().execute(async (trx) => {
          const c = await createApiKey(trx, { name: req.body.name, now: ctx.clock.now() });
          await recordAudit(trx, ctx.clock, req, {
            action: 'api_key.create',
            targetType: 'api_key',
            targetId: c.row.id,
            details: { name: req.body.name, prefix: c.row.prefix },
          });
          return c;
        });
        void reply.code(201).header('cache-control', 'no-store');
        const { key_hash: _hash, ...row } = created.row;
        // The whole key is in this answer only; it is not stored.
        return { data: row, key: created.key };
      },
    );

    app.delete('/admin/api/api-keys/:id', { schema: { hide: true, params: idParam, response: { 200: Done } } }, async (req) => {
      const done = await ctx.db.transaction().execute(async (trx) => {
        if (!(await revokeApiKey(trx, req.params.id, ctx.clock.now()))) return false;
        await recordAudit(trx, ctx.clock, req, { action: 'api_key.revoke', targetType: 'api_key', targetId: req.params.id });
        return true;
      });
      if (!done) throw errors.notFound('API key not found or already revoked');
      return { success: true };
    });

    app.get(
      '/admin/api/outbox',
      { schema: { hide: true, querystring: pageQuery.extend({ channel: z.enum(['email', 'sms']).optional() }), response: { 200: OutboxPage } } },
      async (req, reply) => {
        const page = req.query.page ?? 1;
        const perPage = req.query.per_page ?? DEFAULT_PAGE_SIZE;
        const { data, total } = await outboxPage(ctx.config.dataDir, { offset: (page - 1) * perPage, limit: perPage, channel: req.query.channel });
        void reply.header('cache-control', 'no-store');
        return { data, meta: { ...pageMeta(page, perPage, total), has_more: page * perPage < total } };
      },
    );

    app.get(
      '/admin/api/audit',
      {
        schema: {
          hide: true,
          querystring: pageQuery.extend({
            action: z.string().max(64).optional(),
            target_type: z.string().max(32).optional(),
            target_id: z.string().max(64).optional(),
          }),
          response: { 200: AuditPage },
        },
      },
      async (req) => {
        const page = req.query.page ?? 1;
        const perPage = req.query.per_page ?? DEFAULT_PAGE_SIZE;
        const { data, total } = await listAudit(ctx.db, {
          page,
          perPage,
          action: req.query.action,
          targetType: req.query.target_type,
          targetId: req.query.target_id,
        });
        return { data, meta: pageMeta(page, perPage, total) };
      },
    );
  };
}
