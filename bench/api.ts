/**
 * Customer API benchmark (issue 2). Autocannon on loopback against a real `verity serve` process
 * (embedded SQLite) seeded with 100,000 users, next to a bare Fastify hello-world measured in the
 * same run as the baseline:
 *   - GET /api/users/{id}
 *   - GET /api/users?filter[search]=…&sort=-created_at
 *   - POST /api/users
 * Prints req/s, p50/p99 latency, the ratio to the baseline and each server's CPU time per request.
 * The load generator shares the machine's cores with the servers, so req/s (and the ratio) also
 * depend on its own cost and on other load; CPU per request does not. Hence:
 *   - The baseline gets the same requests as the GET it is compared with: `/api/users/{random id}`
 *     with the same headers, answered with a hello-world. Autocannon builds a request with a path of
 *     its own per request at a cost; a fixed URL is built once, and on this shared 2-core machine
 *     that alone let the baseline go about 1.7 times as fast (the fixed-URL figure is still
 *     printed, for reference).
 *   - Every server is warmed up, unmeasured, with the requests it is about to be measured with.
 *   - The GET and its baseline alternate for ROUNDS rounds, and the median ratio is the result:
 *     back-to-back runs of the same build differ by 10 % here.
 * Targets: reads >= 50 % of the baseline's req/s; writes >= 2,000/s; list p99 <= 50 ms at 100k users.
 * Run: `npm run bench -- api` (BENCH_USERS and BENCH_SECONDS override the defaults).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { buildVerity } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createApiKey } from '../server/store/repos/api-keys-repo.js';
import type { NewUser } from '../server/store/schema.js';
import { UserSearchIndexer } from '../server/store/sqlite/user-search-index.js';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = 3;
const CONNECTIONS = 20;
const SECRET = 'bench-secret-'.padEnd(48, 'x');

const FIRST = ['Ada', 'Bao', 'Chen', 'Dana', 'Eli', 'Fatima', 'Gus', 'Hana', 'Ivan', 'Jun', 'Kofi', 'Lena', 'Mia', 'Noor', 'Omar', 'Pia'];
const LAST = ['Adams', 'Brown', 'Clark', 'Diaz', 'Evans', 'Fox', 'Garcia', 'Hughes', 'Ito', 'Jones', 'Khan', 'Lopez', 'Meyer', 'Nakamura'];

async function seed(dataDir: string): Promise<string> {
  const config = loadConfig({ VERITY_DATA_DIR: dataDir, VERITY_SECRET: SECRET, VERITY_LOG_LEVEL: 'silent' });
  const verity = await buildVerity({ config, logger: false });
  const { db } = verity.ctx;
  const start = Date.parse('2026-01-01T00:00:00Z');
  const batch = 500;
  for (let offset = 0; offset < USERS; offset += batch) {
    await db.transaction().execute(async (trx) => {
      const rows: NewUser[] = [];
      for (let i = offset; i < Math.min(offset + batch, USERS); i++) {
        const at = new Date(start + i * 60_000).toISOString();
        const first = FIRST[i % FIRST.length]!;
        // Every first name meets every last name (the search below must find a page of real matches).
        const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
        rows.push({
          uuid: randomUUID(),
          first_name: first,
          last_name: last,
          username: `user${i}`,
          email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
          phone: null,
          avatar: null,
          address: null,
          country_id: null,
          role_id: 2,
          status: i % 10 === 0 ? 'Verified' : 'Unconfirmed',
          birthday: null,
          last_login: null,
          two_factor_country_code: null,
          two_factor_phone: null,
          two_factor_options: null,
          email_verified_at: null,
          notice: null,
          reference_id: `ref-${i}`,
          template_id: 1,
          custom_verify_data: null,
          order_id: null,
          completion_url: null,
          redirect_url: null,
          dea_number: null,
          link_key: randomBytes(24).toString('base64url'),
          ip: null,
          ip_country: null,
          last_activity: null,
          created_at: at,
          updated_at: at,
        });
      }
      const ids = await trx.insertInto('users').values(rows).returning('id').execute();
      await trx
        .insertInto('user_verifications')
        .values(
          ids.map(({ id }) => ({
            user_id: id,
            method_id: 1,
            status: 0,
            attributes: '{}',
            position: 0,
            started_at: null,
            completed_at: null,
            remarks: null,
            updated_at: rows[0]!.created_at,
          })),
        )
        .execute();
    });
  }
  // On SQLite new users enter the search index in batches after their commit (migration 0009), and
  // the index's segments are merged when the indexer is idle (0010); a server that has run for a
  // while has done both, so the seed finishes the job here rather than leave the server indexing
  // 100,000 users while the baseline is being measured.
  const indexer = UserSearchIndexer.for(db);
  while ((indexer?.indexBatch() ?? 0) > 0);
  while (indexer?.mergeStep());
  const { key } = await createApiKey(db, { name: 'bench', ratePerSecond: 10_000_000, ratePerMinute: 100_000_000, now: new Date() });
  await verity.close();
  return key;
}

function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`process exited early with ${code}: ${out}`)));
  });
}

const BASELINE_SOURCE = `
import Fastify from 'fastify';
const app = Fastify();
app.get('/hello', async () => ({ hello: 'world' }));
app.get('/api/users/:id', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('baseline ready');
`;

/** CPU seconds (user + system) a process has used so far, from /proc; undefined where there is none. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    // Fields 14 and 15 of /proc/PID/stat, in clock ticks (100 per second on Linux); the name
    // (field 2) may hold spaces, so count from the closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

interface Measured {
  result: Result;
  /** The server's CPU time per request: load-generator-independent, unlike req/s on a shared machine. */
  cpuMicros: number | undefined;
}

function run(server: ChildProcess, opts: autocannon.Options): Promise<Measured> {
  const before = cpuSeconds(server.pid);
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts }, (err, result) => {
      if (err) return reject(err);
      const after = cpuSeconds(server.pid);
      const requests = result.requests.total;
      resolve({ result, cpuMicros: before === undefined || after === undefined || requests === 0 ? undefined : ((after - before) * 1e6) / requests });
    });
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function ratioOf(measured: Measured, baseline: Measured): number {
  return measured.result.requests.average / baseline.result.requests.average;
}

function line(name: string, { result: r, cpuMicros }: Measured, baseline?: Measured): string {
  const ratio = baseline ? `  ratio ${ratioOf({ result: r, cpuMicros }, baseline).toFixed(2)}` : '';
  const cpu = cpuMicros === undefined ? '' : `  server CPU ${cpuMicros.toFixed(0).padStart(4)} µs/req`;
  const non2xx = r.non2xx ? `  non-2xx ${r.non2xx}` : '';
  return `${name.padEnd(44)} ${r.requests.average.toFixed(0).padStart(7)} req/s  p50 ${String(r.latency.p50).padStart(4)} ms  p99 ${String(r.latency.p99).padStart(4)} ms${cpu}${ratio}${non2xx}`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'verity-bench-'));
  const children: ChildProcess[] = [];
  try {
    process.stdout.write(`seeding ${USERS} users…\n`);
    const key = await seed(dir);
    const basePort = 18_000 + Math.floor(Math.random() * 1000);
    const verityPort = basePort + 1;
    const baselineServer = await startProcess(['--input-type=module', '-e', BASELINE_SOURCE], { PORT: String(basePort) }, /baseline ready/);
    children.push(baselineServer);
    const verity = await startProcess(
      ['bin/verity.mjs', 'serve'],
      { PORT: String(verityPort), HOST: '127.0.0.1', VERITY_DATA_DIR: dir, VERITY_SECRET: SECRET, VERITY_LOG_LEVEL: 'warn' },
      /listening on/,
    );
    children.push(verity);
    const headers = { authorization: `Bearer ${key}`, 'user-agent': 'verity-bench', accept: 'application/json' };
    const api = `http://127.0.0.1:${verityPort}`;

    // The same request stream for the GET and its baseline: random user ids, the same headers.
    const randomUsers = (url: string): autocannon.Options => ({
      url,
      headers,
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/users/${1 + Math.floor(Math.random() * USERS)}` }) }],
    });
    const warmUp = (server: ChildProcess, opts: autocannon.Options) => run(server, { ...opts, duration: WARM_UP_SECONDS });
    const baselineUrl = `http://127.0.0.1:${basePort}`;
    await warmUp(baselineServer, randomUsers(baselineUrl));
    await warmUp(verity, randomUsers(api));
    const fixedUrlBaseline = await run(baselineServer, { url: `${baselineUrl}/hello` });
    const getRounds: { baseline: Measured; getUser: Measured }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      getRounds.push({ baseline: await run(baselineServer, randomUsers(baselineUrl)), getUser: await run(verity, randomUsers(api)) });
    }
    const listUrl = `${api}/api/users?filter[search]=${encodeURIComponent('hana.lopez')}&sort=-created_at`;
    // A search that finds nobody would measure an empty page; say how many it finds.
    const matches = ((await (await fetch(listUrl, { headers })).json()) as { meta: { total: number } }).meta.total;
    if (matches < 15) throw new Error(`the list search finds ${matches} users; the seed should give it a full page`);
    process.stdout.write(`list search 'hana.lopez' finds ${matches} of ${USERS} users\n`);
    await warmUp(verity, { url: listUrl, headers });
    const list = await run(verity, { url: listUrl, headers });
    let n = 0;
    const create = await run(verity, {
      url: api,
      headers: { ...headers, 'content-type': 'application/json' },
      requests: [
        {
          method: 'POST',
          path: '/api/users',
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ email: `bench${n++}-${Date.now()}@example.com`, first_name: 'Bench' }) }),
        },
      ],
    });

    process.stdout.write(`\nAPI on embedded SQLite, ${USERS} users, ${CONNECTIONS} connections, ${SECONDS} s each, after a ${WARM_UP_SECONDS} s warm-up\n`);
    process.stdout.write(line('reference: bare Fastify, one fixed URL', fixedUrlBaseline) + '\n');
    getRounds.forEach(({ baseline, getUser }, i) => {
      process.stdout.write(line(`round ${i + 1} baseline: bare Fastify, same requests`, baseline) + '\n');
      process.stdout.write(line(`round ${i + 1} GET /api/users/{id}`, getUser, baseline) + '\n');
    });
    const getRatio = median(getRounds.map(({ baseline, getUser }) => ratioOf(getUser, baseline)));
    const getRate = median(getRounds.map(({ getUser }) => getUser.result.requests.average));
    process.stdout.write(
      `${'GET /api/users/{id}, median of rounds'.padEnd(44)} ${getRate.toFixed(0).padStart(7)} req/s  ratio ${getRatio.toFixed(2)}   target ratio >= 0.50\n`,
    );
    process.stdout.write(line('GET /api/users?filter[search]&sort=-created_at', list) + `   target p99 <= 50 ms\n`);
    process.stdout.write(line('POST /api/users', create) + `   target >= 2000 req/s\n`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
