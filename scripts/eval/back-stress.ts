/**
 * `--part backs-stress`: the development backs photographed under the stress sweep
 * (test/fixtures/hard/back-stress.ts: a smaller upload, more blur, stronger JPEG, a steeper
 * angle, a bright clipped scene with a finger, all at once), each through the whole pipeline.
 * Development half only: it says which capture conditions break the barcode decode without
 * looking at the held-out half.
 */
import { analyseDocument } from '../../server/analysis/index.js';
import { BACK_STRESSES, backStressPhoto } from '../../test/fixtures/hard/back-stress.js';
import { formatRate, rateOf } from './metrics.js';

interface StressResult {
  readonly decoded: boolean;
  readonly failure: string | null;
  readonly ms: number;
}

export async function evalBackStress(n: number, today: Date, print: (s?: string) => void, progress: (s: string) => void): Promise<void> {
  print('\n#### Licence backs under the development stress sweep (whole pipeline)\n');
  print('| stress | decoded (PDF417 → AAMVA) | refused | why refused | mean ms |');
  print('|---|---|---|---|---|');
  const all: StressResult[] = [];
  for (const stress of BACK_STRESSES) {
    const rs: StressResult[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const a = await analyseDocument({ bytes: await backStressPhoto(i, stress) }, { today });
      rs.push({ decoded: a.evidence?.barcode === true, failure: a.status === 'Failed' ? a.failure_code : null, ms: performance.now() - t });
    }
    all.push(...rs);
    const why = new Map<string, number>();
    for (const r of rs) if (r.failure) why.set(r.failure, (why.get(r.failure) ?? 0) + 1);
    const ms = Math.round(rs.reduce((s, r) => s + r.ms, 0) / rs.length);
    print(
      `| ${stress} | ${formatRate(rateOf(rs, (r) => r.decoded))} | ${formatRate(rateOf(rs, (r) => r.failure !== null))} | ${[...why].map(([k, v]) => `${k} ×${v}`).join(', ') || '—'} | ${ms} |`,
    );
    progress(`backs-stress: ${stress} done`);
  }
  print(`| all conditions | ${formatRate(rateOf(all, (r) => r.decoded))} | ${formatRate(rateOf(all, (r) => r.failure !== null))} | | |`);
}
