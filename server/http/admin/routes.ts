import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { adminSessionRoutes, csrfGuard, requireAdmin, type AdminAuthOptions } from './auth.js';
import { brandingPreviewRoute } from './preview.js';
import { adminWebhookRoutes } from './webhooks.js';
import { dashboardRoutes, inviteAcceptRoute, refuseCrossSite } from './dashboard/index.js';

/**
 * Everything under `/admin/api`: sign-in/out, and the admin-only JSON routes behind the session
 * check and the CSRF guard. The dashboard adds its routes inside the protected scope.
 */
export function adminRoutes(ctx: AppContext, options: AdminAuthOptions): FastifyPluginAsyncZod {
  return async (app) => {
    // Admin answers carry personal data (users, admins, audit), errors included: never cached.
    app.addHook('onRequest', async (_req, reply) => {
      void reply.header('cache-control', 'no-store');
    });
    await app.register(adminSessionRoutes(ctx, options));
    await app.register(inviteAcceptRoute(ctx));
    await app.register(async (scope) => {
      scope.addHook('onRequest', refuseCrossSite);
      // Before the body is parsed and validated: an anonymous caller gets 401, never a 422 naming fields.
      scope.addHook('onRequest', requireAdmin(ctx));
      scope.addHook('onRequest', csrfGuard(ctx));
      await scope.register(adminWebhookRoutes(ctx));
      await scope.register(dashboardRoutes(ctx));
      // The dashboard's branding preview (an HTML page, framed by the settings view).
      await scope.register(brandingPreviewRoute(ctx));
    });
  };
}
