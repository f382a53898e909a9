import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildVerity, type BuildOptions, type Verity } from '../../server/app.js';
import { type Clock } from '../../server/clock.js';
import { ManualClock } from './manual-clock.js';
import { loadConfig, type Config } from '../../server/config.js';
import { createApiKey } from '../../server/store/repos/api-keys-repo.js';
import { acquireDatabase, dropRedisPrefix, releaseDatabase, scratchRedisUrl, type ScratchDatabase } from './postgres.js';

export interface TestServer {
  verity: Verity;
  config: Config;
  clock: Clock;
  /** The server's own data dir (deleted on close). */
  dataDir: string;
  /**
   * Variables that point another process (the CLI, a spawned binary) at this server's stores:
   * its data dir, and its database and Redis when the suite runs on the scale-out adapters.
   */
  storeEnv: Record<string, string>;
  /** http://127.0.0.1:PORT (the base URL is another name for it when started with `port`). */
  url: string;
  /** A fresh API key with limits high enough not to get in the way (unless asked otherwise). */
  apiKey: string;
  /** fetch against the server with the key and a User-Agent; JSON bodies are encoded. */
  api(path: string, init?: ApiInit): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiInit {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  key?: string | null;
}

/**
 * A parsed JSON answer that tests can walk freely (`body.data[0].id`) and hand to `expect`; each
 * test asserts the shape it relies on. Use `items()` to get an array to map over.
 */
export interface Json {
  [key: string]: Json;
  [index: number]: Json;
}

/** The elements of a JSON array in an answer. */
export function items(value: Json | undefined): Json[] {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value)}`);
  return value as unknown as Json[];
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

export interface TestServerOptions extends Partial<Omit<BuildOptions, 'config'>> {
  clock?: Clock;
  env?: Record<string, string>;
  ratePerSecond?: number;
  ratePerMinute?: number;
  /** Start the in-process workers (default true). */
  workers?: boolean;
  /**
   * Listen on this port (default: a free one) and, with it, use `http://<host>:<port>` as the
   * public base URL: what a passkey's relying party, an OpenID Connect return URL or the
   * dashboard's origin must name before the server starts. `host` defaults to `localhost`.
   */
  port?: number;
  host?: string;
}

/**
 * A real Verity on a random loopback port with its own data dir, for tests that go through HTTP.
 * Set VERITY_TEST_DATABASE_URL / VERITY_TEST_REDIS_URL to run the same tests on the scale-out adapters
 * (`npm run test:server:scale`): each server then gets a database of its own on that PostgreSQL
 * (emptied and reused within a worker process, dropped at the end of the run) and a Redis key
 * prefix of its own (deleted on close).
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'verity-test-'));
  const clock = options.clock ?? new ManualClock(new Date());
  // The scale-out switch: a fresh database and a Redis key prefix of this server's own.
  const scale: Record<string, string> = {};
  let database: ScratchDatabase | undefined;
  const adminUrl = process.env.VERITY_TEST_DATABASE_URL;
  if (adminUrl && options.env?.VERITY_DATABASE_URL === undefined && !options.db) {
    database = await acquireDatabase(adminUrl);
    scale.VERITY_DATABASE_URL = database.url;
  }
  const redisUrl = process.env.VERITY_TEST_REDIS_URL;
  if (redisUrl && options.env?.VERITY_REDIS_URL === undefined) scale.VERITY_REDIS_URL = scratchRedisUrl(redisUrl);
  const config = loadConfig({
    VERITY_DATA_DIR: dataDir,
    PORT: String(options.port ?? 0),
    VERITY_BASE_URL: options.port ? `http://${options.host ?? 'localhost'}:${options.port}` : 'http://verity.test',
    VERITY_SECRET: 'test-secret-'.padEnd(48, 'x'),
    VERITY_ALLOW_PRIVATE_WEBHOOKS: 'true',
    VERITY_LOG_LEVEL: 'silent',
    ...scale,
    ...options.env,
  });
  let verity: Verity;
  try {
    // Analysis is real and slow: tests that want it pass an engine (or the pool) explicitly.
    verity = await buildVerity({ ...options, analysis: options.analysis ?? false, config, clock, logger: false });
  } catch (error: unknown) {
    if (database) await releaseDatabase(database);
    throw error;
  }
  await verity.app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  if (options.workers !== false) await verity.startWorkers();
  const address = verity.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  const { key: apiKey } = await createApiKey(verity.ctx.db, {
    name: 'test',
    ratePerSecond: options.ratePerSecond ?? 100_000,
    ratePerMinute: options.ratePerMinute ?? 1_000_000,
    now: clock.now(),
  });

  const api = async (path: string, init: ApiInit = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { 'user-agent': 'verity-tests/1.0', accept: 'application/json', ...init.headers };
    const key = init.key === undefined ? apiKey : init.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = {};
    }
    return { status: res.status, headers: res.headers, body: parsed as Json, text };
  };

  let closing: Promise<void> | undefined;
  return {
    verity,
    config,
    clock,
    dataDir,
    storeEnv: {
      VERITY_DATA_DIR: dataDir,
      ...(config.databaseUrl ? { VERITY_DATABASE_URL: config.databaseUrl } : {}),
      ...(config.redisUrl ? { VERITY_REDIS_URL: config.redisUrl } : {}),
    },
    url,
    apiKey,
    api,
    close() {
      // Closing twice (a test and its afterAll) must not hand the database back twice.
      closing ??= (async () => {
        try {
          await verity.close();
        } finally {
          if (database) await releaseDatabase(database);
          if (scale.VERITY_REDIS_URL) await dropRedisPrefix(scale.VERITY_REDIS_URL);
        }
        await rm(dataDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
