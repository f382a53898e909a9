/**
 * Duplicate-detection benchmark (issue 23): the time one face capture spends in
 * `detectDuplicates` (store its marks, then compare its descriptor by brute force with every
 * stored face of the account: read, open the seal, cosine) as the number of stored faces grows,
 * on the embedded SQLite store. The baseline, measured in the same run, is a capture with only a
 * document number (one indexed digest lookup). A face capture's analysis takes seconds
 * (docs/analysis.md), so the scan matters once it is a sizeable part of that.
 *
 * Run: `npm run bench -- duplicates` (or `node --import tsx bench/duplicates.ts`);
 * `BENCH_FACES=1000,10000,50000` sets the sizes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { faceDescriptorModel } from '../server/analysis/engines.js';
import { buildVerity } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { sealerFor, SEAL_LABELS } from '../server/crypto/seal.js';
import { detectDuplicates } from '../server/duplicates/detect.js';
import { dupdb } from '../server/duplicates/tables.js';
import type { NewUser } from '../server/store/schema.js';

const SIZES = (process.env.BENCH_FACES ?? '1000,10000,30000').split(',').map(Number);
const RUNS = 5;
const SECRET = 'bench-secret-'.padEnd(48, 'x');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function randomUnit(): Float32Array {
  const v = new Float32Array(1024);
  let sum = 0;
  for (let i = 0; i < v.length; i++) {
    v[i] = Math.random() - 0.5;
    sum += v[i]! * v[i]!;
  }
  const n = Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

function user(i: number): NewUser {
  const at = new Date(Date.parse('2026-01-01T00:00:00Z') + i * 60_000).toISOString();
  return {
    uuid: randomUUID(),
    first_name: 'Bench',
    last_name: `User${i}`,
    username: `user${i}`,
    email: `user${i}@example.com`,
    phone: null,
    avatar: null,
    address: null,
    country_id: null,
    role_id: 2,
    status: 'Active',
    birthday: null,
    last_login: null,
    two_factor_country_code: null,
    two_factor_phone: null,
    two_factor_options: null,
    email_verified_at: null,
    notice: null,
    reference_id: null,
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
  };
}

process.stdout.write(
  `machine: ${process.platform} ${process.arch}, ${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, node ${process.version}\n\n`,
);
const dataDir = await mkdtemp(join(tmpdir(), 'verity-bench-dupes-'));
const config = loadConfig({ VERITY_DATA_DIR: dataDir, VERITY_SECRET: SECRET, VERITY_LOG_LEVEL: 'silent' });
const verity = await buildVerity({ config, logger: false });
const { ctx } = verity;
const db = dupdb(ctx.db);
const sealer = sealerFor(SECRET, SEAL_LABELS.faceVector);
const model = faceDescriptorModel();

// The probing users: each capture is a new user's, so no capture compares with its own marks.
const probes = await ctx.db
  .insertInto('users')
  .values(Array.from({ length: RUNS * (SIZES.length + 1) * 2 }, (_, i) => user(1_000_000 + i)))
  .returning('id')
  .execute();
let probe = 0;
/** Wall and CPU milliseconds of one capture: on a shared, loaded machine wall time mostly measures the other tenants. */
async function timed(evidence: { documents: { docType: string; issuer: string; number: string }[]; faces: number[][] }): Promise<[number, number]> {
  const t = performance.now();
  const c = process.cpuUsage();
  await detectDuplicates(ctx, probes[probe++]!.id, { methodId: 22, source: `bench_${probe}`, ...evidence });
  const used = process.cpuUsage(c);
  return [performance.now() - t, (used.user + used.system) / 1000];
}

process.stdout.write(
  '| stored faces | face capture: wall / CPU, median of 5 | document-number capture (baseline): wall / CPU | CPU ratio | CPU per stored face |\n|---|---|---|---|---|\n',
);
let stored = 0;
for (const size of SIZES) {
  while (stored < size) {
    const n = Math.min(500, size - stored);
    await ctx.db.transaction().execute(async (trx) => {
      const ids = await trx
        .insertInto('users')
        .values(Array.from({ length: n }, (_, i) => user(stored + i)))
        .returning('id')
        .execute();
      await dupdb(trx)
        .insertInto('identity_marks')
        .values(
          ids.map(({ id }) => {
            const v = randomUnit();
            return {
              user_id: id,
              method_id: 22,
              source: `seed_${id}`,
              kind: 'face' as const,
              digest: null,
              model,
              vector: sealer.seal(Buffer.from(v.buffer).toString('base64')),
              created_at: new Date().toISOString(),
            };
          }),
        )
        .execute();
    });
    stored += n;
  }
  const faces: [number, number][] = [];
  const documents: [number, number][] = [];
  for (let i = 0; i < RUNS; i++) {
    faces.push(await timed({ documents: [], faces: [Array.from(randomUnit())] }));
    documents.push(await timed({ documents: [{ docType: 'passport', issuer: 'UTO', number: `BENCH${size}${i}` }], faces: [] }));
  }
  const [fw, fc] = [median(faces.map((x) => x[0])), median(faces.map((x) => x[1]))];
  const [dw, dc] = [median(documents.map((x) => x[0])), median(documents.map((x) => x[1]))];
  process.stdout.write(
    `| ${size.toLocaleString('en')} | ${fw.toFixed(0)} / ${fc.toFixed(0)} ms | ${dw.toFixed(1)} / ${dc.toFixed(1)} ms | ${(fc / dc).toFixed(0)}x | ${((fc / size) * 1000).toFixed(0)} µs |\n`,
  );
}
const { count } = await db
  .selectFrom('identity_marks')
  .select((eb) => eb.fn.countAll<number>().as('count'))
  .executeTakeFirstOrThrow();
process.stdout.write(`\n(${Number(count)} marks stored at the end, on SQLite in ${dataDir})\n`);
await verity.close();
await rm(dataDir, { recursive: true, force: true });
