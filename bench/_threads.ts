/**
 * CPU per thread (Linux /proc) of the bench's 12 MP front, after a warm run, at the checkout ROOT:
 * `ROOT=<checkout> node --import tsx bench/_threads.ts [runs]`. The main thread, libvips' workers
 * (sharp) and the rest (tesseract's workers, libuv) apart: which of them a change moved CPU off.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { benchInputs } from './analysis-inputs.js';
const root = process.env['ROOT'] ?? '..';
const { analyseDocument } = (await import(`${root}/server/analysis/pipeline.ts`)) as typeof import('../server/analysis/pipeline.js');
const { front12 } = await benchInputs();
const snap = (): Map<string, number> => {
  const m = new Map<string, number>();
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const s = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const name = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'));
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      m.set(`${t}:${name}`, (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return m;
};
await analyseDocument({ bytes: front12 });
const tot = new Map<string, number>();
const runs = Number(process.argv[2] ?? 3);
for (let i = 0; i < runs; i++) {
  const a = snap();
  const t = performance.now();
  const r = await analyseDocument({ bytes: front12 });
  const w = performance.now() - t;
  const b = snap();
  const main = (b.get(`${process.pid}:node`) ?? 0) - (a.get(`${process.pid}:node`) ?? 0);
  process.stdout.write(`wall ${Math.round(w)} main ${main} ${JSON.stringify(r.timings)}\n`);
  for (const [k, v] of b)
    tot.set(
      k.replace(/^\d+:/, '') + (k.startsWith(`${process.pid}:`) ? '*main' : ''),
      (tot.get(k.replace(/^\d+:/, '') + (k.startsWith(`${process.pid}:`) ? '*main' : '')) ?? 0) + (v - (a.get(k) ?? 0)) / runs,
    );
}
for (const [k, v] of [...tot].sort((x, y) => y[1] - x[1])) if (v > 5) process.stdout.write(`  ${k.padEnd(24)} ${Math.round(v)} ms\n`);
process.exit(0);
