/**
 * `--part backs-stress`: the development backs photographed under the stress sweep
 * (test/fixtures/hard/back-stress.ts: a smaller upload, more blur, stronger JPEG, a steeper
 * angle, a bright clipped scene with a finger, all at once), each through the whole pipeline.
 * Development half only: it says which capture conditions break the barcode decode without
 * looking at the held-out half. `columns`, `columns-small` and `columns-wide` draw the symbol in
 * other column counts and widths than the development backs' 12 at 900 px (`columns-wide` under
 * capture ranges as wide as the held-out half's published bounds); `wide` and `harsh` draw the
 * development symbol under those bounds and at their hard ends (the screen check's stresses).
 */
import { analyseDocument } from '../../server/analysis/index.js';
import { documentDecision } from '../../server/domain/document-rules.js';
import { BACK_STRESSES, backStressPhoto, type BackStress } from '../../test/fixtures/hard/back-stress.js';
import { DEV } from '../../test/fixtures/hard/config.js';
import type { BackRows } from '../../test/fixtures/hard/documents.js';
import { hardPeople } from '../../test/fixtures/hard/set.js';
import { expectedFields } from './expected.js';
import { formatRate, rateOf, viaCounts } from './metrics.js';

interface StressResult {
  readonly decoded: boolean;
  /** Decoded, with a field unlike the card's (worse than no decode). */
  readonly wrong: boolean;
  readonly failure: string | null;
  readonly cpuMs: number;
  /** Which attempt decoded (zxing's or the soft reader), when one did. */
  readonly via: string | null;
  /** What the service would send to review for this back (`no_machine_readable_data` when unread). */
  readonly flags: readonly string[];
  /** Called a photo of a screen (`internet_detection`): a genuine back falsely flagged. */
  readonly screen: boolean;
  readonly person: number;
}

export async function evalBackStress(
  n: number,
  today: Date,
  print: (s?: string) => void,
  progress: (s: string) => void,
  rows: BackRows = 'standard',
  stresses: readonly BackStress[] = BACK_STRESSES,
): Promise<void> {
  print(`\n#### Licence backs under the development stress sweep (whole pipeline${rows === 'thin' ? ', the `thin` rows variant' : ''})\n`);
  print(
    '| stress | decoded (PDF417 → AAMVA) | decoded by | decoded wrong | refused | why refused | flagged | called a screen | CPU ms, median (decoded / not) |',
  );
  print('|---|---|---|---|---|---|---|---|---|');
  const odd: string[] = [];
  const all: StressResult[] = [];
  const people = hardPeople(DEV, n);
  for (const stress of stresses) {
    const rs: StressResult[] = [];
    for (let i = 0; i < n; i++) {
      const bytes = await backStressPhoto(i, stress, rows);
      const cpu = process.cpuUsage();
      const a = await analyseDocument({ bytes }, { today });
      const used = process.cpuUsage(cpu);
      const got = a.content?.document_processor ?? {};
      const decoded = a.evidence?.barcode === true;
      const wrong =
        decoded && Object.entries(expectedFields(people[i]!, 'barcode')).some(([k, v]) => String(got[k]?.value ?? '').toUpperCase() !== v.toUpperCase());
      rs.push({
        decoded,
        wrong,
        failure: a.status === 'Failed' ? a.failure_code : null,
        cpuMs: (used.user + used.system) / 1000,
        via: a.evidence?.barcode_via ?? null,
        flags: a.status === 'Failed' ? [] : documentDecision(a).flags,
        screen: a.content?.ai_analysis.internet_detection === true,
        person: i,
      });
      const r = rs[rs.length - 1]!;
      // Each back not decoded, decoded wrong, refused or flagged, for the failures' causes.
      if (!r.decoded || r.wrong || r.failure || r.flags.length > 0)
        odd.push(
          `${stress} ${i}: ${r.decoded ? `decoded ${r.via}${r.wrong ? ' WRONG' : ''}` : 'undecoded'}${r.failure ? `, refused ${r.failure}` : ''}${r.flags.length ? `, flagged ${r.flags.join('+')}` : ''}`,
        );
    }
    all.push(...rs);
    const why = new Map<string, number>();
    for (const r of rs) if (r.failure) why.set(r.failure, (why.get(r.failure) ?? 0) + 1);
    print(
      `| ${stress} | ${formatRate(rateOf(rs, (r) => r.decoded))} | ${viaCounts(rs.map((r) => r.via))} | ${formatRate(rateOf(rs, (r) => r.wrong))} | ${formatRate(rateOf(rs, (r) => r.failure !== null))} | ${[...why].map(([k, v]) => `${k} ×${v}`).join(', ') || '—'} | ${formatRate(rateOf(rs, (r) => r.flags.length > 0))} | ${formatRate(rateOf(rs, (r) => r.screen))} | ${cpuSummary(rs)} |`,
    );
    progress(`backs-stress: ${stress} done`);
  }
  print(
    `| all conditions | ${formatRate(rateOf(all, (r) => r.decoded))} | ${viaCounts(all.map((r) => r.via))} | ${formatRate(rateOf(all, (r) => r.wrong))} | ${formatRate(rateOf(all, (r) => r.failure !== null))} | | ${formatRate(rateOf(all, (r) => r.flags.length > 0))} | ${formatRate(rateOf(all, (r) => r.screen))} | ${cpuSummary(all)} |`,
  );
  print('\nBacks not decoded, decoded wrong, refused or flagged (development half only):\n');
  for (const line of odd) print(`- ${line}`);
}

/** "3100 (2400 / 9800)": median CPU ms of all, of the decoded and of the undecoded backs. */
function cpuSummary(rs: readonly StressResult[]): string {
  const med = (xs: readonly number[]): string => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? String(Math.round(s[Math.floor(s.length / 2)]!)) : '—';
  };
  const ms = (f: (r: StressResult) => boolean): number[] => rs.filter(f).map((r) => r.cpuMs);
  return `${med(ms(() => true))} (${med(ms((r) => r.decoded))} / ${med(ms((r) => !r.decoded))})`;
}
