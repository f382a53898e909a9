import { randomBytes } from 'node:crypto';
import { dropRunDatabases, RUN_ENV } from './postgres.js';

/**
 * Vitest global setup: when the suite runs on PostgreSQL (VERITY_TEST_DATABASE_URL), names this
 * run so that the teardown drops every database its test servers created, whichever worker
 * process made them. Does nothing on the embedded default.
 */
export default function setup(): (() => Promise<void>) | undefined {
  const adminUrl = process.env.VERITY_TEST_DATABASE_URL;
  if (!adminUrl) return undefined;
  process.env[RUN_ENV] ??= randomBytes(4).toString('hex');
  return async () => {
    await dropRunDatabases(adminUrl);
  };
}
