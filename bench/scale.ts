/**
 * Scale-out benchmark (issue 8), on PostgreSQL (127.0.0.1:5432, or BENCH_DATABASE_URL) and Redis
 * (127.0.0.1:6379, or BENCH_REDIS_URL), with the real binary:
 *   - API read throughput (GET /api/users/{id}, autocannon) with one `verity serve` and with two
 *     (each load generator on its own process, as a load balancer would spread it): req/s, the
 *     ratio two/one, and the CPU each side used (API processes, PostgreSQL, the load generator).
 *     On 2 cores the ratio is bound by the cores, not by the code: the CPU figures show where.
 *   - Analysis jobs per minute with one and with two `verity worker --queues analysis` processes:
 *     real document images (12 MP phone photos of the test fixtures' licences, front and back)
 *     uploaded through `POST /api/verify/document`, analysed by the real pipeline, timed from the
 *     first upload to the last job's result; with the CPU the workers used and the machine's
 *     busy cores. Analysis is CPU work: on 2 cores two workers can at best use both cores, so the
 *     ratio two/one shows how much of the second core one worker leaves idle, not scaling.
 *   - Queue-path jobs per minute with one and with two `verity worker` processes: magic-link
 *     e-mails (`notify` jobs, written to the outbox) appearing as committed rows of the job outbox,
 *     relayed to BullMQ and run; timed from the rows' commit to an empty queue (workers already up).
 * Run: `npm run bench -- scale` (BENCH_USERS, BENCH_SECONDS, BENCH_JOBS, BENCH_ANALYSIS_JOBS
 * override the defaults).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue as BullQueue } from 'bullmq';
import { Redis } from 'ioredis';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { parseRedisUrl } from '../server/adapters.js';
import { createScratchDatabase, dropRedisPrefix, scratchRedisUrl } from '../test/helpers/postgres.js';
import { cli, freePort, startProcess, stopProcess, type VerityProcess } from '../test/server/scale/processes.js';
import { cached } from '../test/fixtures/cache.js';
import { photograph } from '../test/fixtures/documents.js';
import { flatDocument } from '../test/fixtures/set.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const USERS = Number(process.env.BENCH_USERS ?? 5_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000);
const ANALYSIS_JOBS = Number(process.env.BENCH_ANALYSIS_JOBS ?? 16);
/** Which parts to run (`BENCH_PARTS=analysis`): all three by default. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'api,notify,analysis').split(','));
const CONNECTIONS = 20;
const TICKS = 100; // USER_HZ of /proc/<pid>/stat

/** CPU seconds (user + system) a process has used so far, from /proc. */
async function cpuSeconds(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** CPU seconds of every PostgreSQL server process on this machine (they serve the benchmark). */
async function postgresCpu(): Promise<number> {
  let total = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === 'postgres') total += await cpuSeconds(Number(entry));
  }
  return total;
}

/** Busy and total jiffies of the whole machine (all cores), from /proc/stat. */
async function machineJiffies(): Promise<{ busy: number; total: number }> {
  const cpu = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

const loadAverage = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** 12 MP phone photos of the fixtures' licences (four people, front and back), cached on disk like bench/analysis.ts's. */
async function documentPhotos(): Promise<Buffer[]> {
  const photos: Buffer[] = [];
  for (let person = 0; person < 4; person++) {
    for (const kind of ['licence-front', 'licence-back'] as const) {
      photos.push(
        await cached(`bench/scale-${kind}-${person}-12mp.jpg`, async () =>
          photograph(await flatDocument(person, kind), { width: 4000, height: 3000, angle: 2, quality: 90 }),
        ),
      );
    }
  }
  return photos;
}

function load(url: string, key: string, connections: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration: SECONDS,
        headers: { authorization: `Bearer ${key}`, 'user-agent': 'bench/1.0' },
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/users/${1 + Math.floor(Math.random() * USERS)}` }) }],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function measureApi(apis: { proc: VerityProcess; base: string }[], key: string) {
  const pids = apis.map((a) => a.proc.child.pid!);
  const cpu0 = await Promise.all(pids.map(cpuSeconds));
  const pg0 = await postgresCpu();
  const self0 = process.cpuUsage();
  const started = performance.now();
  const results = await Promise.all(apis.map((a) => load(a.base, key, Math.ceil(CONNECTIONS / apis.length))));
  const wall = (performance.now() - started) / 1000;
  const cpu1 = await Promise.all(pids.map(cpuSeconds));
  const self = process.cpuUsage(self0);
  const reqs = results.reduce((s, r) => s + r.requests.average, 0);
  const errors = results.reduce((s, r) => s + r.non2xx + r.errors, 0);
  return {
    reqs,
    errors,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    apiCpu: cpu1.reduce((s, c, i) => s + c - cpu0[i]!, 0) / wall,
    pgCpu: ((await postgresCpu()) - pg0) / wall,
    loadCpu: (self.user + self.system) / 1e6 / wall,
  };
}

async function main(): Promise<void> {
  const database = await createScratchDatabase(DATABASE_URL, 'bench');
  const redisUrl = scratchRedisUrl(REDIS_URL, 'bench');
  const dataDir = await mkdtemp(join(tmpdir(), 'verity-bench-scale-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VERITY_DATABASE_URL: database.url,
    VERITY_REDIS_URL: redisUrl,
    VERITY_DATA_DIR: dataDir,
    VERITY_SECRET: 'bench-scale-secret-'.padEnd(48, 'x'),
    VERITY_LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
  };
  const procs: VerityProcess[] = [];
  const sql = new pg.Client({ connectionString: database.url });
  try {
    // A CLI command builds a Verity: migrations and the default templates, then the key.
    const key = await cli(env, 'keys', 'create', '--name', 'bench', '--rate-per-second', '100000000', '--rate-per-minute', '100000000');
    await sql.connect();
    // Users straight into the tables (the API path is measured by bench/api.ts).
    await sql.query(
      `insert into users (uuid, first_name, last_name, username, email, role_id, status, reference_id, template_id, link_key, created_at, updated_at)
       select md5('u' || i), 'First' || i, 'Last' || i, 'user' || i, 'user' || i || '@example.com', 2, 'Unconfirmed', 'ref-' || i, 1,
              md5('k' || i), to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
       from generate_series(1, $1) as i`,
      [USERS],
    );
    await sql.query(
      `insert into user_verifications (user_id, method_id, status, attributes, position, updated_at) select id, 1, 0, '{}', 0, created_at from users`,
    );

    const ports = [await freePort(), await freePort()];
    const apis: { proc: VerityProcess; base: string }[] = [];
    for (const port of ports) {
      const proc = await startProcess({ ...env, PORT: String(port) }, ['serve']);
      procs.push(proc);
      apis.push({ proc, base: `http://127.0.0.1:${port}` });
    }
    process.stdout.write(`machine: ${availableParallelism()} cores, load average ${loadAverage()} at the start\n`);
    if (PARTS.has('api')) {
      await load(apis[0]!.base, key, CONNECTIONS); // warm-up (JIT, pools, caches)
      const one = await measureApi(apis.slice(0, 1), key);
      const two = await measureApi(apis, key);
      const line = (name: string, r: typeof one) =>
        `${name.padEnd(30)} ${r.reqs.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  CPU (cores): API ${r.apiCpu.toFixed(2)}  PostgreSQL ${r.pgCpu.toFixed(2)}  load generator ${r.loadCpu.toFixed(2)}${r.errors ? `  errors ${r.errors}` : ''}`;
      process.stdout.write(`API reads, GET /api/users/{id}, ${USERS} users on PostgreSQL, ${CONNECTIONS} connections, ${SECONDS} s\n`);
      process.stdout.write(`${line('one API process', one)}\n${line('two API processes', two)}  ratio ${(two.reqs / one.reqs).toFixed(2)}\n`);
    }

    // Jobs: the workers start and settle first; then JOBS committed job rows appear at once, exactly
    // what the create-user transaction writes for `send_link` (the transactional job outbox), and
    // the clock runs until the relay has moved them to BullMQ and the workers have run them all.
    if (PARTS.has('notify')) {
      const redis = new Redis(parseRedisUrl(redisUrl).url, { maxRetriesPerRequest: null });
      const notify = new BullQueue('notify', { connection: redis, prefix: parseRedisUrl(redisUrl).prefix });
      const drain = async (workers: number): Promise<number> => {
        const ws: VerityProcess[] = [];
        for (let w = 0; w < workers; w++) ws.push(await startProcess(env, ['worker', '--queues', 'notify']));
        procs.push(...ws);
        await new Promise((r) => setTimeout(r, 2_000));
        const started = performance.now();
        await sql.query(
          `insert into jobs (queue, payload, state, attempts, max_attempts, run_at, created_at)
         select 'notify', json_build_object('kind', 'magic_link', 'userId', id, 'channel', 'email')::text, 'waiting', 0, 10,
                to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         from users order by id limit $1`,
          [JOBS],
        );
        for (;;) {
          const rows = Number((await sql.query<{ n: string }>("select count(*) as n from jobs where queue = 'notify' and state = 'waiting'")).rows[0]!.n);
          const c = await notify.getJobCounts('waiting', 'active', 'prioritized');
          if (rows + (c.waiting ?? 0) + (c.active ?? 0) + (c.prioritized ?? 0) === 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        const seconds = (performance.now() - started) / 1000;
        const failed = Number((await sql.query<{ n: string }>("select count(*) as n from jobs where state = 'failed'")).rows[0]!.n);
        if (failed > 0) throw new Error(`${failed} jobs failed`);
        for (const w of ws) await stopProcess(w);
        return (JOBS / seconds) * 60;
      };
      const j1 = await drain(1);
      const j2 = await drain(2);
      process.stdout.write(`\nJobs (notify: magic-link e-mail to the outbox), ${JOBS} per run, PostgreSQL + BullMQ, 2 at once per worker\n`);
      process.stdout.write(`${'one worker process'.padEnd(30)} ${j1.toFixed(0).padStart(7)} jobs/min\n`);
      process.stdout.write(`${'two worker processes'.padEnd(30)} ${j2.toFixed(0).padStart(7)} jobs/min  ratio ${(j2 / j1).toFixed(2)}\n`);
      await notify.close();
      redis.disconnect();
    }

    // Analysis: document jobs through the customer API, the whole way a customer's upload goes.
    if (PARTS.has('analysis')) {
      const photos = await documentPhotos();
      const api = apis[0]!.base;
      const auth = { authorization: `Bearer ${key}`, 'user-agent': 'bench/1.0' };
      let uploaded = 0;
      const upload = async (): Promise<string> => {
        const n = uploaded++;
        const created = await fetch(`${api}/api/users`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ email: `doc${n}@example.com`, template_id: 'tmpl_document' }),
        });
        if (created.status !== 200) throw new Error(`create user: ${created.status} ${await created.text()}`);
        const { id } = (await created.json()) as { id: number };
        const form = new FormData();
        form.set('user_id', String(id));
        form.set('template_id', 'tmpl_document');
        form.set('verify_image', new Blob([new Uint8Array(photos[n % photos.length]!)], { type: 'image/jpeg' }), `doc${n}.jpg`);
        const res = await fetch(`${api}/api/verify/document`, { method: 'POST', headers: auth, body: form });
        if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { doc_id: string }).doc_id;
      };
      const settled = async (docIds: string[]): Promise<Record<string, number>> => {
        for (;;) {
          const { rows } = await sql.query<{ status: string; n: string }>(
            'select status, count(*) as n from document_jobs where doc_id = any($1) group by status',
            [docIds],
          );
          const counts = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
          if (!counts.Processing) return counts;
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const analyse = async (workers: number) => {
        const ws: VerityProcess[] = [];
        for (let w = 0; w < workers; w++) ws.push(await startProcess(env, ['worker', '--queues', 'analysis']));
        procs.push(...ws);
        // Warm-up: each worker's analysis thread loads its engines (OCR, barcode, face) on its first job.
        await settled(await Promise.all(Array.from({ length: 2 * workers }, upload)));
        const pids = ws.map((w) => w.child.pid!);
        const cpu0 = await Promise.all(pids.map(cpuSeconds));
        const machine0 = await machineJiffies();
        const load0 = loadAverage();
        const started = performance.now();
        const docIds: string[] = [];
        for (let i = 0; i < ANALYSIS_JOBS; i++) docIds.push(await upload());
        const outcomes = await settled(docIds);
        const wall = (performance.now() - started) / 1000;
        const cpu1 = await Promise.all(pids.map(cpuSeconds));
        const machine1 = await machineJiffies();
        for (const w of ws) await stopProcess(w);
        return {
          perMinute: (ANALYSIS_JOBS / wall) * 60,
          wall,
          workerCpu: cpu1.reduce((s, c, i) => s + c - cpu0[i]!, 0) / wall,
          machineBusy: ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * availableParallelism(),
          outcomes,
          load: `${load0} → ${loadAverage()}`,
        };
      };
      const a1 = await analyse(1);
      const a2 = await analyse(2);
      process.stdout.write(
        `\nAnalysis jobs (POST /api/verify/document, 12 MP JPEG licences, real pipeline), ${ANALYSIS_JOBS} per run, PostgreSQL + BullMQ, ${availableParallelism()} cores\n`,
      );
      const aline = (name: string, r: typeof a1) =>
        `${name.padEnd(30)} ${r.perMinute.toFixed(1).padStart(7)} jobs/min  (${r.wall.toFixed(1)} s)  CPU (cores): workers ${r.workerCpu.toFixed(2)} (${(r.perMinute / r.workerCpu).toFixed(1)} jobs per worker CPU-minute), whole machine ${r.machineBusy.toFixed(2)} of ${availableParallelism()}  results ${JSON.stringify(r.outcomes)}  load average ${r.load}`;
      // On a shared machine the workers get what the other tenants leave: jobs per worker CPU-minute
      // says what a core does, whoever else is busy.
      process.stdout.write(`${aline('one analysis worker', a1)}\n${aline('two analysis workers', a2)}  ratio ${(a2.perMinute / a1.perMinute).toFixed(2)}\n`);
    }
  } finally {
    for (const p of procs) await stopProcess(p, 'SIGKILL');
    await sql.end().catch(() => undefined);
    await database.drop();
    await dropRedisPrefix(redisUrl);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
