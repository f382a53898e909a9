/**
 * `--part passports-stress`: the development passports photographed under the stress sweep
 * (test/fixtures/hard/stress.ts: dim and noisy, blurred, a small upload, all of it; and the MRZ
 * typeset smaller or larger than the development half prints it, `tight` and `wide`), each through
 * the whole pipeline and the document decision, as an upload would be. Development half only. It
 * counts the worst outcome apart: an MRZ that passed every check with a wrong value and was
 * accepted with nothing raised (issue 20), next to those sent to review (`mrz_uncertain`) and
 * refused.
 */
import { analyseDocument } from '../../server/analysis/index.js';
import { documentDecision } from '../../server/domain/document-rules.js';
import { VerificationStatus } from '../../server/domain/catalogue.js';
import { DEV } from '../../test/fixtures/hard/config.js';
import { hardPeople } from '../../test/fixtures/hard/set.js';
import { stressedPassport, type Stress } from '../../test/fixtures/hard/stress.js';
import { passportMrz } from '../../test/fixtures/mrz.js';
import { formatRate, rateOf } from './metrics.js';

const STRESSES: readonly Stress[] = ['dim', 'blur', 'small', 'hard', 'tight', 'wide'];

interface StressResult {
  /** Both MRZ lines read exactly. */
  readonly exact: boolean;
  readonly refused: boolean;
  /** Sent to review because the MRZ passes did not vouch for a field. */
  readonly uncertain: boolean;
  /** Complete: accepted with nothing raised. */
  readonly accepted: boolean;
  readonly ms: number;
}

export async function evalPassportStress(n: number, today: Date, print: (s?: string) => void, progress: (s: string) => void): Promise<void> {
  print('\n#### Passports under the development stress sweep (whole pipeline and document decision)\n');
  print('| stress | MRZ both lines exact | accepted with a wrong MRZ | exact, sent to review (`mrz_uncertain`) | wrong, sent to review | refused | mean ms |');
  print('|---|---|---|---|---|---|---|');
  const people = hardPeople(DEV, n);
  const all: StressResult[] = [];
  for (const stress of STRESSES) {
    const rs: StressResult[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const a = await analyseDocument({ bytes: await stressedPassport(i, stress) }, { today });
      const decision = documentDecision(a);
      const lines = a.content?.mrz_data[0]?.lines;
      rs.push({
        exact: lines !== undefined && JSON.stringify(lines) === JSON.stringify(passportMrz(people[i]!)),
        refused: a.status === 'Failed',
        uncertain: decision.flags.includes('mrz_uncertain'),
        accepted: decision.status === VerificationStatus.complete,
        ms: performance.now() - t,
      });
    }
    all.push(...rs);
    const row = (xs: StressResult[]): string =>
      [
        formatRate(rateOf(xs, (r) => r.exact)),
        formatRate(rateOf(xs, (r) => r.accepted && !r.exact)),
        formatRate(rateOf(xs, (r) => r.uncertain && r.exact)),
        formatRate(rateOf(xs, (r) => r.uncertain && !r.exact)),
        formatRate(rateOf(xs, (r) => r.refused)),
      ].join(' | ');
    print(`| ${stress} | ${row(rs)} | ${Math.round(rs.reduce((s, r) => s + r.ms, 0) / rs.length)} |`);
    progress(`passports-stress: ${stress} done`);
    if (stress === STRESSES.at(-1)) print(`| all conditions | ${row(all)} | |`);
  }
}
