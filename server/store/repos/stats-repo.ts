import { sql } from 'kysely';
import type { Executor } from '../database.js';

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

export const LATEST_REGISTRATIONS = 10;

export interface UserCounts {
  total: number;
  /** Created, no verification flow started. */
  new: number;
  banned: number;
  /** Flow started (pending or processing) but not verified, not banned. */
  unconfirmed: number;
}

/** The statistics behind `GET /api/stats` (spec 4.16); the dashboard shows the same numbers. */
export async function accountStatistics(ex: Executor, now: Date) {
  const year = String(now.getUTCFullYear());
  const perMonthRows = await ex
    .selectFrom('users')
    .select([sql<string>`substr(created_at, 6, 2)`.as('month'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', `${year}-01-01`)
    .where('created_at', '<', `${Number(year) + 1}-01-01`)
    .groupBy(sql`substr(created_at, 6, 2)`)
    .execute();
  const users_per_month = Object.fromEntries(MONTHS.map((m) => [m, 0])) as Record<(typeof MONTHS)[number], number>;
  for (const r of perMonthRows) users_per_month[MONTHS[Number(r.month) - 1]!] = Number(r.n);

  const started = ex
    .selectFrom('user_verifications as v')
    .select('v.user_id')
    .where('v.user_id', '=', sql<number>`users.id`)
    .where('v.status', '!=', 0);
  // By lower(status), as the list's filter: the counts then read only users_status_lower_idx.
  const status = sql<string>`lower(status)`;
  const counts = await ex
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when(status, '=', 'banned').then(1).else(0).end()).as('banned'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb(status, '=', 'unconfirmed'), eb.not(eb.exists(started))]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('new'),
      eb.fn.sum<number>(eb.case().when(status, 'in', ['unconfirmed', 'active', 'review']).then(1).else(0).end()).as('open'),
    ])
    .executeTakeFirstOrThrow();
  const users_per_status: UserCounts = {
    total: Number(counts.total),
    new: Number(counts.new ?? 0),
    banned: Number(counts.banned ?? 0),
    unconfirmed: Number(counts.open ?? 0) - Number(counts.new ?? 0),
  };
  const latest = await ex.selectFrom('users').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(LATEST_REGISTRATIONS).execute();
  return { users_per_month, users_per_status, latest };
}

/** How many verifications reached each of `statuses` per UTC day (`YYYY-MM-DD`) since `since`. */
export function decisionCountsByDay(ex: Executor, since: string, statuses: readonly number[]): Promise<{ day: string; status: number; n: number }[]> {
  const day = sql<string>`substr(completed_at, 1, 10)`;
  return ex
    .selectFrom('user_verifications')
    .select([day.as('day'), 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('completed_at', '>=', since)
    .where('status', 'in', [...statuses])
    .groupBy([day, 'status'])
    .execute();
}

/** The most recently completed verifications since `since` (at most `limit`), other than `exceptStatus`. */
export function recentCompletedVerifications(
  ex: Executor,
  since: string,
  exceptStatus: number,
  limit: number,
): Promise<{ user_id: number; method_id: number; attributes: string }[]> {
  return ex
    .selectFrom('user_verifications')
    .select(['user_id', 'method_id', 'attributes'])
    .where('completed_at', '>=', since)
    .where('status', '!=', exceptStatus)
    .orderBy('completed_at', 'desc')
    .limit(limit)
    .execute();
}
