/**
 * `npm test` runs the server suite on PostgreSQL + Redis too (and the tests under
 * test/server/scale need them in every pass): stop at once, saying which service is missing,
 * rather than minutes later in a failed test. CI's machine runs both on their standard ports.
 */
import { checkTestServices } from '../test/helpers/services.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../test/helpers/scale-env.js';

try {
  await checkTestServices(TEST_DATABASE_URL, TEST_REDIS_URL);
  console.log('PostgreSQL and Redis answer: the tests can use them.');
} catch (error: unknown) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
