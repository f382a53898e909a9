/**
 * Whole-pipeline equivalence: every output of `analyseDocument` (timings left out, the
 * derivative hashed) for the bench inputs and development fronts, backs and passports, as JSON
 * lines, to diff two checkouts; which stages ran and the CPU per document go to stderr.
 * ROOT=<checkout> node --import tsx bench/_equiv-docs.ts FRONTS BACKS PASSPORTS > out.jsonl
 */
import { createHash } from 'node:crypto';
import { HALVES } from '../test/fixtures/hard/config.js';
import { hardPhoto } from '../test/fixtures/hard/set.js';
import { backStressPhoto } from '../test/fixtures/hard/back-stress.js';
import { benchInputs } from './analysis-inputs.js';
const root = process.env['ROOT'] ?? '..';
const { analyseDocument } = (await import(`${root}/server/analysis/pipeline.ts`)) as typeof import('../server/analysis/pipeline.js');
const { closeEngines } = (await import(`${root}/server/analysis/engines.ts`)) as typeof import('../server/analysis/engines.js');
const [fronts, backs, passports] = process.argv.slice(2, 5).map((s) => Number(s ?? 0));
const half = HALVES[(process.env['HALF'] ?? 'dev') as 'dev']!;
const b = await benchInputs();
const inputs: [string, () => Promise<Buffer>][] = [
  ['bench-front', async () => b.front12],
  ['bench-back', async () => b.back12],
  ['bench-passport', async () => b.passportPdf],
  ['stress-back-5-tilt', () => backStressPhoto(5, 'tilt')],
];
for (let i = 0; i < fronts!; i++) inputs.push([`${i}-front`, () => hardPhoto(half, i, 'licence-front')]);
for (let i = 0; i < backs!; i++) inputs.push([`${i}-back`, () => hardPhoto(half, i, 'licence-back')]);
for (let i = 0; i < passports!; i++) inputs.push([`${i}-passport`, () => hardPhoto(half, i, 'passport')]);
const today = new Date('2026-11-28T00:00:00Z');
for (const [name, make] of inputs) {
  const bytes = await make();
  const c = process.cpuUsage();
  const r = await analyseDocument({ bytes }, { receivedAt: today, today });
  const u = process.cpuUsage(c);
  const { timings, derivative, ...rest } = r;
  const out = { name, ...rest, derivative: derivative ? createHash('sha256').update(derivative).digest('hex') : null };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  const stages = Object.keys(timings).filter((k) => k !== 'total');
  process.stderr.write(`${name}\tcpu ${Math.round((u.user + u.system) / 1000)}\t${stages.join(',')}\n`);
}
await closeEngines();
