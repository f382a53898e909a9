import { checkTestServices } from './services.js';
import { dropRunDatabases, dropRunRedisPrefixes, dropStaleRuns, newRunId, RUN_ENV } from './postgres.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './scale-env.js';

/**
 * Vitest global setup: names this run, so that the teardown drops every scratch database and
 * Redis prefix its test servers created (the scale switch, and the PostgreSQL tests under
 * test/server/scale), whichever worker process made them, whether its tests passed or failed.
 *
 * On the scale switch (VERITY_TEST_DATABASE_URL / VERITY_TEST_REDIS_URL set) PostgreSQL and Redis
 * must answer: the run stops at once with a message saying which is missing, rather than failing
 * every test one by one. It also drops what killed runs left behind hours ago.
 */
export default async function setup(): Promise<() => Promise<void>> {
  process.env[RUN_ENV] ??= newRunId();
  const scaleSwitch = process.env.VERITY_TEST_DATABASE_URL !== undefined || process.env.VERITY_TEST_REDIS_URL !== undefined;
  if (scaleSwitch) {
    await checkTestServices(TEST_DATABASE_URL, TEST_REDIS_URL);
    await dropStaleRuns(TEST_DATABASE_URL, TEST_REDIS_URL);
  }
  return async () => {
    // Unreachable: then no test of this run could have created anything there.
    await dropRunDatabases(TEST_DATABASE_URL).catch(() => undefined);
    await dropRunRedisPrefixes(TEST_REDIS_URL).catch(() => undefined);
  };
}
