/**
 * Where the scale-out tests find PostgreSQL and Redis: the same variables as the scale switch, or
 * the services CI runs on this machine (PostgreSQL on 127.0.0.1:5432 with trust auth, Redis on
 * 127.0.0.1:6379). These tests need both, whichever way the rest of the suite runs.
 */
export const TEST_DATABASE_URL = process.env.VERITY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.VERITY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
