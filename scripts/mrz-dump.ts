/**
 * `npx tsx scripts/mrz-dump.ts`: each development passport through the whole pipeline and the
 * document decision, one JSON line per passport (outcome, MRZ read and expected, doubts, the
 * pass readings, CPU), to compare MRZ changes capture by capture. Development half only: the
 * held-out half is scored by `npm run eval`, never inspected.
 *
 * `--stage`: the MRZ stage alone (`runMrz` on the page as the pipeline prepares it), with each
 * pass's reading: faster, and what the page OCR adds (vouching, rebuilt lines) is not in it.
 *
 * Usage: npx tsx scripts/mrz-dump.ts [--stage] [--stresses as-drawn,dim,blur,small,hard,tight,wide,wide-turned] [--people 0-11] [--half dev|dev-variant] [--out FILE]
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { analyseDocument, closeEngines, prepareInput } from '../server/analysis/index.js';
import { fitRaster, toGrey } from '../server/analysis/raster.js';
import { runMrz } from '../server/analysis/stages/mrz.js';
import { documentDecision } from '../server/domain/document-rules.js';
import { VerificationStatus } from '../server/domain/catalogue.js';
import { DEV, HALVES, type HalfName } from '../test/fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../test/fixtures/hard/set.js';
import { stressedPassport, type Stress } from '../test/fixtures/hard/stress.js';
import { passportMrz } from '../test/fixtures/mrz.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const [from, to] = (arg('--people') ?? '0-11').split('-').map(Number) as [number, number];
const stresses = (arg('--stresses') ?? 'dim,blur,small,hard').split(',') as (Stress | 'as-drawn')[];
const halfName = (arg('--half') ?? 'dev') as HalfName;
if (halfName === 'heldout') throw new Error('the held-out half is not for inspection');
const half = HALVES[halfName] ?? DEV;
const out = arg('--out');
if (out) writeFileSync(out, '');
const today = new Date('2026-06-01T00:00:00Z');
const people = hardPeople(half, to + 1);

for (const stress of stresses) {
  for (let i = from; i <= to; i++) {
    const bytes = stress === 'as-drawn' ? await hardPhoto(half, i, 'passport') : await stressedPassport(i, stress, half);
    if (process.argv.includes('--stage')) {
      await stage(stress, i, bytes);
      continue;
    }
    const cpu = process.cpuUsage();
    const a = await analyseDocument({ bytes }, { today });
    const used = process.cpuUsage(cpu);
    const decision = documentDecision(a);
    const lines = a.content?.mrz_data[0]?.lines;
    const expected = passportMrz(people[i]!);
    const exact = lines !== undefined && JSON.stringify(lines) === JSON.stringify(expected);
    const accepted = decision.status === VerificationStatus.complete;
    const outcome =
      a.status === 'Failed'
        ? `refused ${a.failure_code}`
        : accepted
          ? exact
            ? 'ok'
            : 'ACCEPTED-WRONG'
          : `review ${decision.flags.join('+')}${exact ? '' : ' (wrong)'}`;
    const row = {
      stress,
      i,
      outcome,
      exact,
      lines,
      expected,
      doubts: a.evidence?.mrz_doubts,
      cpuS: Math.round((used.user + used.system) / 1e4) / 100,
      mrzMs: a.timings?.['mrz'],
      fallbackMs: a.timings?.['mrz_fallback'],
    };
    process.stdout.write(
      `${stress} ${i}: ${outcome} cpu ${row.cpuS}s${exact || !lines ? '' : `\n   read ${lines.join(' / ')}\n   want ${expected.join(' / ')}`}\n`,
    );
    if (out) appendFileSync(out, `${JSON.stringify(row)}\n`);
  }
}
await closeEngines();

/** The MRZ stage alone on one capture: exact and clean, exact with a doubt, wrong with a doubt, WRONG (nothing doubted), or unread. */
async function stage(stress: string, i: number, bytes: Buffer): Promise<void> {
  const grey = toGrey(await fitRaster((await prepareInput(bytes)).raster, 2000));
  const cpu = process.cpuUsage();
  const read = await runMrz(grey, today);
  const used = process.cpuUsage(cpu);
  const lines = read.data?.valid ? read.data.lines : undefined;
  const expected = passportMrz(people[i]!);
  const exact = lines !== undefined && JSON.stringify(lines) === JSON.stringify(expected);
  const doubted = (read.doubts?.length ?? 0) > 0;
  const outcome = !lines
    ? `unread (${read.data?.failing_checks.join(',') ?? 'none found'})`
    : exact
      ? doubted
        ? 'exact-doubted'
        : 'ok'
      : doubted
        ? 'wrong-doubted'
        : 'WRONG';
  const cpuS = Math.round((used.user + used.system) / 1e4) / 100;
  process.stdout.write(
    `${stress} ${i}: ${outcome} cpu ${cpuS}s${exact || !read.data ? '' : `\n   read ${read.data.lines.join(' / ')}\n   want ${expected.join(' / ')}`}\n`,
  );
  if (out)
    appendFileSync(
      out,
      `${JSON.stringify({ stress, i, outcome, exact, lines: read.data?.lines, expected, doubts: read.doubts, passes: read.passes, lineRead: read.lineRead, cpuS })}\n`,
    );
}
