import { RateLimiterMemory } from 'rate-limiter-flexible';
import { ManualClock } from './manual-clock.js';
import type { LimiterFactory } from '../../server/http/limiter-factory.js';
import { startTestServer, type TestServer, type TestServerOptions } from './server.js';

/** The scale switch: every test server is on PostgreSQL + Redis (see test/helpers/server.ts). */
export const onScale = Boolean(process.env.VERITY_TEST_DATABASE_URL && process.env.VERITY_TEST_REDIS_URL);

/**
 * One store for every limiter it makes, like Redis for every process: limiters of one prefix share
 * counts. Handed to two test servers, it makes them count together as scale-out processes do.
 */
function sharedMemoryFactory(): LimiterFactory {
  const made = new Map<string, RateLimiterMemory>();
  return (points, duration, keyPrefix) => {
    const id = `${keyPrefix}:${points}:${duration}`;
    let limiter = made.get(id);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points, duration, keyPrefix });
      made.set(id, limiter);
    }
    return limiter;
  };
}

/**
 * Two test servers whose rate limits count together, as two processes of one deployment. On the
 * scale switch the second joins the first one's PostgreSQL database and Redis prefix (the first
 * server's own scratch stores, dropped when it closes), as a second `verity serve` would: close
 * the second first. Embedded, both share one in-memory limiter factory (and have stores of their own).
 * Both run on one clock (the given one, or a ManualClock at the current time).
 */
export async function startLimiterSharingServers(given: TestServerOptions = {}): Promise<[TestServer, TestServer]> {
  // One clock for both, as processes on one machine share one: the limits' windows are the clock's.
  const options = { ...given, clock: given.clock ?? new ManualClock(new Date()) };
  if (onScale) {
    const a = await startTestServer(options);
    const { VERITY_DATA_DIR: _ownDataDir, ...sharedStores } = a.storeEnv;
    if (Object.keys(sharedStores).sort().join() !== 'VERITY_DATABASE_URL,VERITY_REDIS_URL') {
      throw new Error(`expected the test server on PostgreSQL + Redis, got ${Object.keys(sharedStores).join(', ')}`);
    }
    return [a, await startTestServer({ ...options, env: { ...options.env, ...sharedStores } })];
  }
  const limiterFactory = sharedMemoryFactory();
  return [await startTestServer({ ...options, limiterFactory }), await startTestServer({ ...options, limiterFactory })];
}
