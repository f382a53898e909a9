import { randomBytes } from 'node:crypto';
import { dropRunDatabases, RUN_ENV } from './postgres.js';
import { TEST_DATABASE_URL } from './scale-env.js';

/**
 * Vitest global setup: names this run, so that the teardown drops every scratch database its test
 * servers created (the scale switch, and the PostgreSQL tests under test/server/scale), whichever
 * worker process made them. A run that touched no PostgreSQL has nothing to drop.
 */
export default function setup(): () => Promise<void> {
  process.env[RUN_ENV] ??= randomBytes(4).toString('hex');
  return async () => {
    try {
      await dropRunDatabases(TEST_DATABASE_URL);
    } catch {
      // PostgreSQL unreachable: then no test of this run could have created a database there.
    }
  };
}
