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
    await app.register(adminSessionRoutes(ctx, options));
    await app.register(inviteAcceptRoute(ctx));
    await app.register(async (scope) => {
      scope.addHook('onRequest', refuseCrossSite);
      scope.addHook('preHandler', requireAdmin(ctx));
      scope.addHook('preHandler', csrfGuard(ctx));
      await scope.register(adminWebhookRoutes(ctx));
      await scope.register(dashboardRoutes(ctx));
      // The dashboard's branding preview (an HTML page, framed by the settings view).
      await scope.register(brandingPreviewRoute(ctx));
    });
  };
}
