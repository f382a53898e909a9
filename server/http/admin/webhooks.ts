import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../admin/audit.js';
import { listNotices, markNoticeRead } from '../../admin/notices-repo.js';
import type { AppContext } from '../../context.js';
import { EVENT_TYPES } from '../../domain/verification-rules.js';
import { type ApiError, errors } from '../../errors.js';
import { deliveryExists } from '../../store/repos/webhook-deliveries-repo.js';
import { SigningSecretError } from '../../crypto/webhook-secrets.js';
import { checkUrlTarget, createEndpoint, endpointView, EndpointInputError, rotateSecret, signingSecrets, updateEndpoint } from '../../webhooks/endpoints.js';
import { deleteEndpoint, findEndpoint, listEndpoints } from '../../webhooks/endpoints-repo.js';
import { getDelivery, listDeliveries, retryDelivery, RetryRefused, sendTestPayload } from '../../webhooks/log.js';
import { Done } from '../../../src/api/admin/common.js';
import { NoticesAnswer } from '../../../src/api/admin/notices.js';
import {
  DeliveriesPage,
  DeliveryAnswer,
  DeliveryDetailAnswer,
  EndpointAnswer,
  EndpointsAnswer,
  EndpointWithSecret,
  RevealedSecret,
} from '../../../src/api/admin/webhooks.js';

const idParam = z.object({ id: z.coerce.number().int().positive() });
const eventType = z.enum(EVENT_TYPES as [string, ...string[]]);
const endpointBody = z.object({
  url: z.string().min(1).max(2000),
  events: z.array(eventType).max(EVENT_TYPES.length).optional(),
  methods: z.array(z.number().int().positive()).max(50).nullable().optional(),
  description: z.string().max(500).optional(),
  enabled: z.boolean().optional(),
});
const endpointPatch = endpointBody.partial().extend({ description: z.string().max(500).nullable().optional() });
const deliveryQuery = z.object({
  endpoint_id: z.coerce.number().int().positive().optional(),
  state: z.enum(['pending', 'succeeded', 'failed']).optional(),
  event_type: eventType.optional(),
  event_id: z.string().max(64).optional(),
  user_id: z.coerce.number().int().positive().optional(),
  test: z.enum(['true', 'false']).optional(),
  since: z.iso.datetime().optional(),
  until: z.iso.datetime().optional(),
  page: z.coerce.number().int().positive().optional(),
  per_page: z.coerce.number().int().positive().max(200).optional(),
});

function inputError(error: unknown): never {
  if (error instanceof EndpointInputError) throw errors.validation({ [error.field]: [error.message] });
  throw error;
}

function conflict(message: string): ApiError {
  return errors.conflict(message);
}

/**
 * Webhook administration (endpoints, secrets, delivery log, retries, test payloads) under
 * `/admin/api/webhooks`. Registered inside the admin scope: `requireAdmin` and the CSRF guard apply.
 */
export function adminWebhookRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const now = () => ctx.clock.now();
    // A stored secret that does not open under VERITY_SECRET: the server's configuration is at
    // fault (the secret was changed), so the answer says that instead of showing garbage.
    const secretError = (error: unknown): never => {
      if (!(error instanceof SigningSecretError)) throw error;
      ctx.log.error(error.message);
      throw errors.internal(error.message);
    };

    app.get('/admin/api/webhooks/endpoints', { schema: { hide: true, response: { 200: EndpointsAnswer } } }, async () => ({
      data: (await listEndpoints(ctx.db)).map((r) => endpointView(r, now())),
    }));

    app.post('/admin/api/webhooks/endpoints', { schema: { hide: true, body: endpointBody, response: { 201: EndpointWithSecret } } }, async (req, reply) => {
      // Where the URL leads is checked before the transaction: it resolves the name.
      await checkUrlTarget(req.body.url, ctx.config.allowPrivateWebhooks).catch(inputError);
      const { row, secret } = await ctx.db
        .transaction()
        .execute(async (trx) => {
          const created = await createEndpoint(trx, req.body, now(), ctx.config.secret);
          await recordAudit(trx, ctx.clock, req, { action: 'webhook.endpoint.create', targetType: 'webhook_endpoint', targetId: created.row.id });
          return created;
        })
        .catch(inputError);
      void reply.code(201);
      // The secret is shown here once; later only through the explicit reveal below.
      return { data: endpointView(row, now()), signing_secret: secret };
    });

    app.get('/admin/api/webhooks/endpoints/:id', { schema: { hide: true, params: idParam, response: { 200: EndpointAnswer } } }, async (req) => {
      const row = await findEndpoint(ctx.db, req.params.id);
      if (!row) throw errors.notFound('Webhook endpoint not found');
      return { data: endpointView(row, now()) };
    });

    app.patch(
      '/admin/api/webhooks/endpoints/:id',
      { schema: { hide: true, params: idParam, body: endpointPatch, response: { 200: EndpointAnswer } } },
      async (req) => {
        if (Object.values(req.body).every((v) => v === undefined)) throw errors.invalidData();
        // A new URL, or enabling the endpoint again (it may have been disabled for a private address).
        const target = req.body.url ?? (req.body.enabled === true ? (await findEndpoint(ctx.db, req.params.id))?.url : undefined);
        if (target !== undefined) await checkUrlTarget(target, ctx.config.allowPrivateWebhooks).catch(inputError);
        const row = await ctx.db
          .transaction()
          .execute(async (trx) => {
            const updated = await updateEndpoint(trx, req.params.id, req.body, now());
            if (updated) await recordAudit(trx, ctx.clock, req, { action: 'webhook.endpoint.update', targetType: 'webhook_endpoint', targetId: req.params.id });
            return updated;
          })
          .catch(inputError);
        if (!row) throw errors.notFound('Webhook endpoint not found');
        return { data: endpointView(row, now()) };
      },
    );

    app.delete('/admin/api/webhooks/endpoints/:id', { schema: { hide: true, params: idParam, response: { 200: Done } } }, async (req) => {
      const deleted = await ctx.db.transaction().execute(async (trx) => {
        if (!(await deleteEndpoint(trx, req.params.id))) return false;
        await recordAudit(trx, ctx.clock, req, { action: 'webhook.endpoint.delete', targetType: 'webhook_endpoint', targetId: req.params.id });
        return true;
      });
      if (!deleted) throw errors.notFound('Webhook endpoint not found');
      return { success: true };
    });

    app.post(
      '/admin/api/webhooks/endpoints/:id/secret/reveal',
      { schema: { hide: true, params: idParam, response: { 200: RevealedSecret } } },
      async (req, reply) => {
        // Recorded before the secret is shown: a reveal that cannot be recorded shows nothing.
        const row = await ctx.db.transaction().execute(async (trx) => {
          const found = await findEndpoint(trx, req.params.id);
          if (found) await recordAudit(trx, ctx.clock, req, { action: 'webhook.secret.reveal', targetType: 'webhook_endpoint', targetId: req.params.id });
          return found;
        });
        if (!row) throw errors.notFound('Webhook endpoint not found');
        void reply.header('cache-control', 'no-store');
        let secrets: string[] = [];
        try {
          secrets = signingSecrets(row, now(), ctx.config.secret);
        } catch (error: unknown) {
          secretError(error);
        }
        const [current, previous] = secrets;
        return {
          signing_secret: current,
          previous_signing_secret: previous ?? null,
          previous_secret_expires_at: previous ? row.previous_secret_expires_at : null,
        };
      },
    );

    app.post(
      '/admin/api/webhooks/endpoints/:id/secret/rotate',
      {
        schema: {
          hide: true,
          params: idParam,
          body: z.object({ overlap_hours: z.number().min(0).max(168).optional() }).optional(),
          response: { 200: EndpointWithSecret },
        },
      },
      async (req, reply) => {
        const overlapMs = (req.body?.overlap_hours ?? 24) * 3_600_000;
        const rotated = await ctx.db
          .transaction()
          .execute(async (trx) => {
            const r = await rotateSecret(trx, req.params.id, now(), ctx.config.secret, overlapMs);
            if (r) await recordAudit(trx, ctx.clock, req, { action: 'webhook.secret.rotate', targetType: 'webhook_endpoint', targetId: req.params.id });
            return r;
          })
          .catch(secretError);
        if (!rotated) throw errors.notFound('Webhook endpoint not found');
        void reply.header('cache-control', 'no-store');
        return { data: endpointView(rotated.row, now()), signing_secret: rotated.secret };
      },
    );

    app.post(
      '/admin/api/webhooks/endpoints/:id/test',
      { schema: { hide: true, params: idParam, body: z.object({ type: eventType.optional() }).optional(), response: { 202: DeliveryAnswer } } },
      async (req, reply) => {
        const type = (req.body?.type ?? 'verification.completed') as (typeof EVENT_TYPES)[number];
        const delivery = await sendTestPayload(ctx, req.params.id, type, (trx) =>
          recordAudit(trx, ctx.clock, req, { action: 'webhook.test', targetType: 'webhook_endpoint', targetId: req.params.id }),
        );
        if (!delivery) throw errors.notFound('Webhook endpoint not found');
        void reply.code(202);
        return { data: delivery };
      },
    );

    app.get('/admin/api/webhooks/deliveries', { schema: { hide: true, querystring: deliveryQuery, response: { 200: DeliveriesPage } } }, async (req) => {
      const q = req.query;
      return listDeliveries(ctx, {
        endpointId: q.endpoint_id,
        state: q.state,
        eventType: q.event_type,
        eventId: q.event_id,
        userId: q.user_id,
        test: q.test === undefined ? undefined : q.test === 'true',
        since: q.since,
        until: q.until,
        page: q.page,
        perPage: q.per_page,
      });
    });

    app.get(
      '/admin/api/webhooks/deliveries/:id',
      {
        schema: {
          hide: true,
          params: idParam,
          querystring: z.object({ reveal: z.enum(['true', 'false']).optional() }),
          response: { 200: DeliveryDetailAnswer },
        },
      },
      async (req) => {
        const reveal = req.query.reveal === 'true';
        if (reveal) {
          // Recorded before the unmasked body is read and shown.
          const exists = await ctx.db.transaction().execute(async (trx) => {
            const found = await deliveryExists(trx, req.params.id);
            if (found) await recordAudit(trx, ctx.clock, req, { action: 'webhook.delivery.unmask', targetType: 'webhook_delivery', targetId: req.params.id });
            return found;
          });
          if (!exists) throw errors.notFound('Delivery not found');
        }
        const delivery = await getDelivery(ctx, req.params.id, { reveal });
        if (!delivery) throw errors.notFound('Delivery not found');
        return { data: delivery };
      },
    );

    app.post('/admin/api/webhooks/deliveries/:id/retry', { schema: { hide: true, params: idParam, response: { 202: DeliveryAnswer } } }, async (req, reply) => {
      try {
        const delivery = await retryDelivery(ctx, req.params.id, (trx) =>
          recordAudit(trx, ctx.clock, req, { action: 'webhook.delivery.retry', targetType: 'webhook_delivery', targetId: req.params.id }),
        );
        if (!delivery) throw errors.notFound('Delivery not found');
        void reply.code(202);
        return { data: delivery };
      } catch (error: unknown) {
        if (error instanceof RetryRefused) throw conflict(error.message);
        throw error;
      }
    });

    app.post('/admin/api/notices/:id/read', { schema: { hide: true, params: idParam, response: { 200: Done } } }, async (req) => {
      if (!(await markNoticeRead(ctx.db, req.params.id, now()))) throw errors.notFound('Notice not found');
      return { success: true };
    });

    app.get(
      '/admin/api/notices',
      { schema: { hide: true, querystring: z.object({ unread: z.enum(['true', 'false']).optional() }), response: { 200: NoticesAnswer } } },
      async (req) => ({
        data: (await listNotices(ctx.db, req.query.unread === 'true')).map((n) => ({
          id: n.id,
          kind: n.kind,
          message: n.message,
          details: n.details === null ? null : (JSON.parse(n.details) as unknown),
          created_at: n.created_at,
          read_at: n.read_at,
        })),
      }),
    );
  };
}
