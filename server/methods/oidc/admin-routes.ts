import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../admin/audit.js';
import type { AdminKit } from '../method.js';
import { errors } from '../../errors.js';
import { addProvider, removeProvider } from './provider-admin.js';
import { listProviders } from './providers-repo.js';
import { redirectUriOf } from './sign-in.js';
import { Done } from '../../../src/api/admin/common.js';
import { SignInProviderAnswer, SignInProvidersAnswer } from '../../../src/api/admin/sign-in-providers.js';
import { rowIdParam } from '../../http/admin/dashboard/common.js';

const providerBody = z
  .object({
    purpose: z.enum(['social', 'payment']),
    name: z.string().trim().min(1).max(60),
    issuer: z.string().trim().min(1).max(500),
    client_id: z.string().min(1).max(500),
    client_secret: z.string().min(1).max(2000),
    scopes: z.string().max(500).optional(),
  })
  .strict();

/**
 * The dashboard's sign-in providers (Social Account, Payment Account): list, add, remove. Inside
 * the admin scope (admin session, CSRF, Fetch Metadata). Secrets go in and never come out; the
 * listing names the redirect URI to register with each provider.
 */
export function oidcProviderAdminRoutes({ ctx }: AdminKit): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/admin/api/oidc-providers', { schema: { hide: true, response: { 200: SignInProvidersAnswer } } }, async () => ({
      data: await listProviders(ctx.db),
      redirect_uri: redirectUriOf(ctx.config.baseUrl),
    }));

    app.post('/admin/api/oidc-providers', { schema: { hide: true, body: providerBody, response: { 201: SignInProviderAnswer } } }, async (req, reply) => {
      const created = await addProvider(ctx, req.body);
      await recordAudit(ctx.db, ctx.clock, req, {
        action: 'oidc_provider.create',
        targetType: 'oidc_provider',
        targetId: created.id,
        details: { purpose: created.purpose, name: created.name, issuer: created.issuer },
      });
      return reply.code(201).send({ data: created });
    });

    app.delete(
      '/admin/api/oidc-providers/:id',
      {
        schema: {
          hide: true,
          params: rowIdParam,
          response: { 200: Done },
        },
      },
      async (req) => {
        if (!(await removeProvider(ctx, req.params.id))) throw errors.notFound('No such sign-in provider.');
        await recordAudit(ctx.db, ctx.clock, req, { action: 'oidc_provider.delete', targetType: 'oidc_provider', targetId: req.params.id });
        return { success: true };
      },
    );
  };
}
