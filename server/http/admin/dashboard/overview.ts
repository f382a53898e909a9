import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../../context.js';
import { userViews } from '../../../services/user-view.js';
import { accountStatistics } from '../../../store/repos/stats-repo.js';

/** The overview: the numbers of `GET /api/stats` (same function), and admin notices not yet read. */
export function dashboardOverviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/admin/api/overview', { schema: { hide: true } }, async () => {
      const now = ctx.clock.now();
      const stats = await accountStatistics(ctx.db, now);
      const statusRows = await ctx.db
        .selectFrom('users')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      return {
        year: now.getUTCFullYear(),
        users_per_month: stats.users_per_month,
        users_per_status: stats.users_per_status,
        // The stored user statuses too, for the chart of users per status.
        users_by_status: Object.fromEntries(statusRows.map((r) => [r.status, Number(r.n)])),
        latest_registrations: await userViews(ctx.db, stats.latest, ctx.config.baseUrl),
      };
    });
  };
}
