import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../../context.js';
import { checkPassRates, decisionsPerDay, OVERVIEW_DAYS, PASS_RATE_SAMPLE } from '../../../services/overview-series.js';
import { userViews } from '../../../services/user-view.js';
import { accountStatistics } from '../../../store/repos/stats-repo.js';
import { userCountsByStatus } from '../../../store/repos/users-repo.js';
import { Overview } from '../../../../src/api/admin/overview.js';

/** The overview: the numbers of `GET /api/stats` (same function) and the chart series. */
export function dashboardOverviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/admin/api/overview', { schema: { hide: true, response: { 200: Overview } } }, async () => {
      const now = ctx.clock.now();
      const stats = await accountStatistics(ctx.db, now);
      const statusRows = await userCountsByStatus(ctx.db);
      return {
        year: now.getUTCFullYear(),
        users_per_month: stats.users_per_month,
        users_per_status: stats.users_per_status,
        users_by_status: Object.fromEntries(statusRows.map((r) => [r.status, Number(r.n)])),
        days: OVERVIEW_DAYS,
        decisions_per_day: await decisionsPerDay(ctx.db, now),
        pass_rate_sample: PASS_RATE_SAMPLE,
        check_pass_rates: await checkPassRates(ctx.db, now),
        latest_registrations: await userViews(ctx.db, stats.latest, ctx.config.baseUrl),
      };
    });
  };
}
