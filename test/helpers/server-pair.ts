import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startProcess, stopProcess, type VerityProcess } from '../server/scale/processes.js';
import { acquireDatabase, dropRedisPrefix, releaseDatabase, scratchRedisUrl } from './postgres.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './scale-env.js';
import { startTestServer, type TestServer } from './server.js';

/** Two Verity processes on one scratch PostgreSQL database and one Redis prefix. */
export interface ServerPair {
  /** The in-process test server (its API key works on both). */
  server: TestServer;
  /** The `verity serve` child process. */
  child: VerityProcess;
  /** http://127.0.0.1:PORT of the child. */
  childUrl: string;
  /** The Redis URL with the key prefix both processes use. */
  redisUrl: string;
  /** Stops both and drops the database, the Redis prefix and the child's data dir. */
  close(): Promise<void>;
}

export interface ServerPairOptions {
  /** Start the test server's in-process workers (default true). */
  workers?: boolean;
}

/**
 * An in-process test server and a real `verity serve` child process sharing PostgreSQL and
 * Redis, for tests of what one process of a scaled-out Verity must not keep to itself. `label`
 * names the Redis prefix and the child's data dir. The database is always PostgreSQL, so the
 * scale pass (vitest.scale.config.ts) need not run these tests again.
 */
export async function startServerPair(label: string, options: ServerPairOptions = {}): Promise<ServerPair> {
  // Undone in reverse order, by close() or by a failure part-way through the start.
  const undo: (() => Promise<unknown>)[] = [];
  const close = async (): Promise<void> => {
    const errors: unknown[] = [];
    for (const step of undo.splice(0).reverse()) {
      try {
        await step();
      } catch (error: unknown) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, 'closing the server pair failed');
  };
  try {
    const database = await acquireDatabase(TEST_DATABASE_URL);
    undo.push(() => releaseDatabase(database));
    const redisUrl = scratchRedisUrl(TEST_REDIS_URL, label);
    undo.push(() => dropRedisPrefix(redisUrl));
    const stores = { VERITY_DATABASE_URL: database.url, VERITY_REDIS_URL: redisUrl };
    const server = await startTestServer({ workers: options.workers, env: stores });
    undo.push(() => server.close());
    const childDir = await mkdtemp(join(tmpdir(), `verity-${label}-`));
    undo.push(() => rm(childDir, { recursive: true, force: true }));
    const port = await freePort();
    const child = await startProcess(
      {
        ...process.env,
        ...stores,
        VERITY_DATA_DIR: childDir,
        VERITY_SECRET: server.config.secret,
        VERITY_BASE_URL: server.config.baseUrl,
        VERITY_LOG_LEVEL: 'error',
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      ['serve'],
    );
    undo.push(() => stopProcess(child, 'SIGKILL'));
    return { server, child, childUrl: `http://127.0.0.1:${port}`, redisUrl, close };
  } catch (error: unknown) {
    await close().catch(() => undefined);
    throw error;
  }
}
