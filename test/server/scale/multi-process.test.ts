import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, dropRedisPrefix, scratchRedisUrl, type ScratchDatabase } from '../../helpers/postgres.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../helpers/scale-env.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { cli, freePort, startProcess, stopProcess, type VerityProcess } from './processes.js';

/**
 * Two API processes (`verity serve`) and two worker processes (`verity worker`) of the real binary
 * on one PostgreSQL database and one Redis: what a scaled-out deployment is.
 */
describe('many processes on PostgreSQL + Redis', () => {
  let database: ScratchDatabase;
  let redisUrl: string;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let receiver: Receiver;
  let sql: pg.Client;
  const apis: { proc: VerityProcess; base: string }[] = [];
  const workers: VerityProcess[] = [];
  /** Receiver arrivals by event id (webhook-id header). */
  const arrivals = new Map<string, number>();
  let hold = 0;

  beforeAll(async () => {
    database = await createScratchDatabase(TEST_DATABASE_URL, 'mp');
    redisUrl = scratchRedisUrl(TEST_REDIS_URL, 'mp');
    dataDir = await mkdtemp(join(tmpdir(), 'verity-mp-'));
    receiver = await startReceiver(async (req, _body, res) => {
      const id = String(req.headers['webhook-id']);
      arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
      if (hold > 0) await new Promise((r) => setTimeout(r, hold));
      if (!res.destroyed) res.writeHead(200).end();
    });
    env = {
      ...process.env,
      VERITY_DATABASE_URL: database.url,
      VERITY_REDIS_URL: redisUrl,
      VERITY_DATA_DIR: dataDir,
      VERITY_SECRET: 'multi-process-secret-'.padEnd(48, 'x'),
      VERITY_BASE_URL: 'http://verity.test',
      VERITY_ALLOW_PRIVATE_WEBHOOKS: 'true',
      VERITY_LOG_LEVEL: 'error',
      HOST: '127.0.0.1',
    };
    sql = new pg.Client({ connectionString: database.url });
    await cli(env, 'migrate');
    await sql.connect();
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...apis.map((a) => stopProcess(a.proc, 'SIGKILL')), ...workers.map((w) => stopProcess(w, 'SIGKILL'))]);
    await sql?.end();
    await receiver?.close();
    await database?.drop();
    if (redisUrl) await dropRedisPrefix(redisUrl);
    await rm(dataDir, { recursive: true, force: true });
  });

  const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'user-agent': 'mp-test/1.0', 'content-type': 'application/json' });

  async function createUsers(key: string, from: number, count: number): Promise<void> {
    for (let i = from; i < from + count; i++) {
      const base = apis[i % apis.length]!.base;
      const res = await fetch(`${base}/api/users`, {
        method: 'POST',
        headers: headers(key),
        body: JSON.stringify({ email: `mp${i}@example.com`, template_id: 'tmpl_email' }),
      });
      expect(res.status).toBe(200);
      const { id } = (await res.json()) as { id: number };
      const moved = await fetch(`${apis[(i + 1) % apis.length]!.base}/api/users/${id}/verifications`, {
        method: 'PATCH',
        headers: headers(key),
        body: JSON.stringify({ verification_id: 'email', status: 'complete' }),
      });
      expect(moved.status).toBe(200);
    }
  }

  async function eventIds(): Promise<string[]> {
    return (await sql.query<{ id: string }>('select id from events order by id')).rows.map((r) => r.id);
  }

  async function allDelivered(timeoutMs: number): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ids = await eventIds();
      const missing = ids.filter((id) => !arrivals.has(id));
      if (missing.length === 0 || Date.now() > deadline) {
        expect(missing).toEqual([]);
        return ids;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Waits until every delivery is recorded as succeeded (the answer is recorded after it arrives). */
  async function allRecorded(timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    let open = -1;
    while (open !== 0 && Date.now() < until) {
      open = (await sql.query<{ n: number }>("select count(*)::int as n from webhook_deliveries where state <> 'succeeded'")).rows[0]!.n;
      if (open !== 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(open).toBe(0);
  }

  it('starts two API and two worker processes at once on a fresh database', { timeout: 300_000 }, async () => {
    const ports = [await freePort(), await freePort()];
    const metricsPorts = [await freePort(), await freePort()];
    const probePort = await freePort();
    const started = await Promise.all([
      ...ports.map((port, i) => startProcess({ ...env, PORT: String(port), VERITY_METRICS_PORT: String(metricsPorts[i]) }, ['serve'])),
      startProcess(env, ['worker']),
      startProcess(env, ['worker', '--queues', 'webhooks.deliver,webhooks.retention,notify', '--probe-port', String(probePort)]),
    ]);
    apis.push({ proc: started[0]!, base: `http://127.0.0.1:${ports[0]}` }, { proc: started[1]!, base: `http://127.0.0.1:${ports[1]}` });
    workers.push(started[2]!, started[3]!);
    // One first admin, told once, however many processes started together.
    expect(started.filter((p) => p.output().includes('Admin sign-in')).length).toBeLessThanOrEqual(1);
    expect((await sql.query('select count(*)::int as n from admins')).rows[0]).toEqual({ n: 1 });
    for (const [i, { base }] of apis.entries()) {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      // Readiness on the operations listener only (issue 18, point 3).
      expect((await fetch(`${base}/readyz`)).status).toBe(404);
      const ready = await fetch(`http://127.0.0.1:${metricsPorts[i]}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok', blobs: 'ok' } });
    }
    // A worker answers probes and metrics on its own port, and nothing of the API.
    const probe = `http://127.0.0.1:${probePort}`;
    expect((await fetch(`${probe}/healthz`)).status).toBe(200);
    expect((await fetch(`${probe}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${probe}/metrics`)).text()).toContain('verity_queue_jobs{queue="webhooks.deliver",state="waiting"}');
    expect((await fetch(`${probe}/api/users`)).status).toBe(404);
  });

  it(
    'holds a per-key limit in total across both API processes (exact counts), and a revoked key is refused by both at once',
    { timeout: 300_000 },
    async () => {
      const key = await cli(env, 'keys', 'create', '--name', 'limited', '--rate-per-second', '1000', '--rate-per-minute', '40');
      // The per-minute window is the clock's minute: the burst must not straddle two of them.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          fetch(`${apis[i % 2]!.base}/api/users?per_page=1`, { headers: headers(key) }).then((r) => [i % 2, r.status] as const),
        ),
      );
      const ok = answers.filter(([, s]) => s === 200);
      expect(ok).toHaveLength(40);
      expect(answers.filter(([, s]) => s === 429)).toHaveLength(60);
      // Both processes served part of the 40: the counter is shared, not per process.
      expect(ok.some(([p]) => p === 0) && ok.some(([p]) => p === 1)).toBe(true);

      const other = await cli(env, 'keys', 'create', '--name', 'to-revoke', '--rate-per-second', '1000', '--rate-per-minute', '1000');
      for (const { base } of apis) expect((await fetch(`${base}/api/users`, { headers: headers(other) })).status).toBe(200);
      const { rows } = await sql.query<{ id: number }>("select id from api_keys where name = 'to-revoke'");
      await cli(env, 'keys', 'revoke', String(rows[0]!.id));
      for (const { base } of apis) expect((await fetch(`${base}/api/users`, { headers: headers(other) })).status).toBe(401);
    },
  );

  it('delivers every webhook once per attempt with no double processing across two workers', { timeout: 300_000 }, async () => {
    await cli(env, 'webhooks', 'create', '--url', receiver.url);
    const key = await cli(env, 'keys', 'create', '--name', 'writer', '--rate-per-second', '100000', '--rate-per-minute', '1000000');
    hold = 20;
    await createUsers(key, 0, 60);
    const ids = await allDelivered(150_000);
    expect(ids.length).toBeGreaterThanOrEqual(120);
    const twice = [...arrivals.entries()].filter(([, n]) => n !== 1);
    expect(twice).toEqual([]);
    await allRecorded(60_000);
    const { rows } = await sql.query<{ state: string; n: number; attempts: number }>(
      'select state, count(*)::int as n, max(attempts)::int as attempts from webhook_deliveries group by state',
    );
    expect(rows).toEqual([{ state: 'succeeded', n: ids.length, attempts: 1 }]);
  });

  it('loses nothing when a worker is killed (SIGKILL) mid-job; a graceful stop (SIGTERM) exits cleanly', { timeout: 400_000 }, async () => {
    // Worker 2 stops gracefully: it finishes what it holds and exits 0.
    expect(await stopProcess(workers[1]!, 'SIGTERM')).toBe(0);
    const before = new Set(await eventIds());
    hold = 3_000; // Answers take 3 s: deliveries are in flight in worker 1 when it is killed.
    const key = await cli(env, 'keys', 'create', '--name', 'writer2', '--rate-per-second', '100000', '--rate-per-minute', '1000000');
    await createUsers(key, 1000, 20);
    const fresh = (await eventIds()).filter((id) => !before.has(id));
    const deadline = Date.now() + 30_000;
    while (![...arrivals.keys()].some((id) => fresh.includes(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fresh.some((id) => arrivals.has(id))).toBe(true);
    await stopProcess(workers[0]!, 'SIGKILL');
    // Worker 1 was the only one running: everything that arrived so far was sent by it, and the
    // requests it held open (answers take 3 s) were in its hands when it died.
    const inFlight = fresh.filter((id) => arrivals.has(id));
    hold = 0;
    // A new worker takes over what the dead one held once its lock runs out.
    workers.push(await startProcess(env, ['worker']));
    await allDelivered(120_000);
    for (const id of fresh) expect(arrivals.get(id)).toBeGreaterThanOrEqual(1);
    // Only what was in the dead worker's hands may have gone out twice.
    const dup = fresh.filter((id) => (arrivals.get(id) ?? 0) > 1);
    for (const id of dup) expect(inFlight).toContain(id);
    // And every delivery ends recorded as succeeded.
    await allRecorded(60_000);
  });
});
