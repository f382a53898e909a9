import type { Executor } from '../database.js';

/**
 * The payloads of a queue's jobs still waiting or running in the `jobs` table. A reader beside
 * the queue port (the webhook sweeper asks which deliveries a live job will still attempt).
 */
export function liveJobPayloads(ex: Executor, queue: string): Promise<{ payload: string }[]> {
  return ex.selectFrom('jobs').select('payload').where('queue', '=', queue).where('state', 'in', ['waiting', 'active']).execute();
}

/** Live jobs by queue and state, with how many of them wait for a later `run_at` than `now`. */
export function liveJobCounts(ex: Executor, now: string): Promise<{ queue: string; state: string; n: number | string; later: number | string }[]> {
  return ex
    .selectFrom('jobs')
    .select((eb) => [
      'queue',
      'state',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string>(eb.case().when('run_at', '>', now).then(1).else(0).end()).as('later'),
    ])
    .where('state', 'in', ['waiting', 'active'])
    .groupBy(['queue', 'state'])
    .execute();
}
