/**
 * The dashboard's overview contract (`GET /admin/api/overview`): the numbers of `GET /api/stats`
 * and the series behind the dashboard's charts.
 */
import * as z from 'zod/mini';
import { AdminUser } from './users.js';

const count = z.int().check(z.nonnegative());

export const Overview = z.object({
  year: z.int(),
  users_per_month: z.record(z.string(), count),
  users_per_status: z.object({ total: count, new: count, banned: count, unconfirmed: count }),
  /** The stored user statuses, for the chart of users per status. */
  users_by_status: z.record(z.string(), count),
  /** How many days the daily series and the pass rates cover, today included. */
  days: z.int().check(z.positive()),
  decisions_per_day: z.array(z.object({ date: z.iso.date(), approved: count, rejected: count, review: count })),
  /** At most this many of the most recent decided verifications feed the pass rates. */
  pass_rate_sample: z.int().check(z.positive()),
  check_pass_rates: z.array(z.object({ check: z.string(), passed: count, flagged: count, failed: count, rate: z.number().check(z.minimum(0), z.maximum(1)) })),
  latest_registrations: z.array(AdminUser),
});
export type Overview = z.infer<typeof Overview>;
