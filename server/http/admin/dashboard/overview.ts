import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.js';
import { checkPassRates, decisionsPerDay, OVERVIEW_DAYS, PASS_RATE_SAMPLE } from '../../../services/overview-series.js';
import { userViews } from '../../../services/user-view.js';
import { accountStatistics } from '../../../store/repos/stats-repo.js';
import { userCountsByStatus } from '../../../store/repos/users-repo.js';
import { userSchema } from '../../schemas.js';

const count = z.number().int().nonnegative();

/** The overview's answer: the numbers of `GET /api/stats` and the series behind the dashboard's charts. */
const overviewResponse = z.object({
  year: z.number().int(),
  users_per_month: z.record(z.string(), count),
  users_per_status: z.object({ total: count, new: count, banned: count, unconfirmed: count }),
  /** The stored user statuses, for the chart of users per status. */
  users_by_status: z.record(z.string(), count),
  /** How many days the daily series and the pass rates cover, today included. */
  days: z.number().int().positive(),
  decisions_per_day: z.array(z.object({ date: z.iso.date(), approved: count, rejected: count, review: count })),
  /** At most this many of the most recent decided verifications feed the pass rates. */
  pass_rate_sample: z.number().int().positive(),
  check_pass_rates: z.array(z.object({ check: z.string(), passed: count, flagged: count, failed: count, rate: z.number().min(0).max(1) })),
  latest_registrations: z.array(userSchema),
});

/** The overview: the numbers of `GET /api/stats` (same function) and the chart series. */
export function dashboardOverviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/admin/api/overview', { schema: { hide: true, response: { 200: overviewResponse } } }, async () => {
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
