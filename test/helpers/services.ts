import { Redis } from 'ioredis';
import pg from 'pg';

/** How long a service may take to answer before the run is stopped. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Throws one clear error naming every service of the PostgreSQL + Redis tests that does not
 * answer (and how to start it), instead of letting each test fail on its own connection error.
 * URLs are printed without their password.
 */
export async function checkTestServices(databaseUrl: string, redisUrl: string): Promise<void> {
  const problems: string[] = [];
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error: unknown) {
    problems.push(
      `PostgreSQL does not answer at ${shown(databaseUrl)} (${message(error)}). ` +
        `Start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or point VERITY_TEST_DATABASE_URL at one.`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: CONNECT_TIMEOUT_MS, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The connection's own error (ECONNREFUSED…) says more than the rejection ("Connection is closed").
  let connectionError: unknown;
  redis.on('error', (error: unknown) => (connectionError ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error: unknown) {
    problems.push(
      `Redis does not answer at ${shown(redisUrl)} (${message(connectionError ?? error)}). ` +
        `Start it (redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "") or point VERITY_TEST_REDIS_URL at one.`,
    );
  } finally {
    redis.disconnect();
  }
  if (problems.length > 0) {
    throw new Error(`The PostgreSQL + Redis tests need both services:\n- ${problems.join('\n- ')}`);
  }
}

function shown(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

function message(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return message(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}
