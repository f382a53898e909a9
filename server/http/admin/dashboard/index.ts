import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../../context.js';
import { errors } from '../../../errors.js';
import { applyRetention, RETENTION_INTERVAL_MS } from '../../../admin/retention.js';
import { dashboardAdminRoutes } from './admins.js';
import { dashboardDeveloperRoutes } from './developers.js';
import { dashboardCaseRoutes } from './cases.js';
import { dashboardImageRoutes } from './images.js';
import { dashboardOverviewRoutes } from './overview.js';
import { dashboardReviewRoutes } from './reviews.js';
import { dashboardSettingsRoutes } from './settings.js';
import { dashboardTemplateRoutes } from './templates.js';
import { dashboardUserRoutes } from './users.js';
import { methodAdminRoutes } from '../../../methods/registry.js';
import type { AdminKit } from '../../../methods/method.js';
import { settingsView } from './settings-view.js';

export { inviteAcceptRoute } from './admins.js';
export { logoRoute } from './settings.js';
export { pageRoutes } from './pages.js';

/**
 * An `onRequest` hook for the whole admin scope: reads are refused too when the browser says the
 * request is cross-site or same-site (Fetch Metadata), so another site cannot make a signed-in
 * browser load admin data (the CSRF guard covers state-changing methods).
 */
export async function refuseCrossSite(req: FastifyRequest): Promise<void> {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw errors.forbidden('Cross-site request refused.');
}

/**
 * The dashboard's admin JSON routes. Registered inside the admin scope of `../routes.ts`, so every
 * one is behind `requireAdmin` (an admin session cookie; API keys and end-user sessions are never
 * admin credentials), the CSRF guard and {@link refuseCrossSite}.
 */
export function dashboardRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // The retention periods set here run hourly in every process (idempotent deletes).
    let timer: NodeJS.Timeout | undefined;
    const sweep = () => {
      applyRetention(ctx).catch((error: unknown) => ctx.log.error({ err: error }, 'dashboard retention failed'));
    };
    app.addHook('onReady', async () => {
      timer = setInterval(sweep, RETENTION_INTERVAL_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
    });
    await app.register(dashboardOverviewRoutes(ctx));
    await app.register(dashboardUserRoutes(ctx));
    await app.register(dashboardReviewRoutes(ctx));
    await app.register(dashboardCaseRoutes(ctx));
    await app.register(dashboardImageRoutes(ctx));
    await app.register(dashboardTemplateRoutes(ctx));
    await app.register(dashboardSettingsRoutes(ctx));
    await app.register(dashboardDeveloperRoutes(ctx));
    await app.register(dashboardAdminRoutes(ctx));
    // Each method's own admin routes (its `ServerMethod.adminRoutes`), under the same hooks.
    const kit: AdminKit = { ctx, settingsView: () => settingsView(ctx) };
    for (const routes of methodAdminRoutes()) await app.register(routes(kit));
  };
}
