/**
 * Per-input CPU and stage timings of the document pipeline only (bench/analysis.ts without the
 * pool and API part), with the harder development captures: `node --import tsx bench/_stages.ts [runs]`.
 */
import { backStressPhoto } from '../test/fixtures/hard/back-stress.js';
import { benchInputs, hardBenchInputs } from './analysis-inputs.js';

const root = process.env['ROOT'] ?? '..';
const { closeEngines } = (await import(`${root}/server/analysis/engines.ts`)) as typeof import('../server/analysis/engines.js');
const { analyseDocument } = (await import(`${root}/server/analysis/pipeline.ts`)) as typeof import('../server/analysis/pipeline.js');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const { front12, back12, passportPdf: pdf } = await benchInputs();
const inputs = [
  { name: 'front', bytes: front12 },
  { name: 'back', bytes: back12 },
  { name: 'passport', bytes: pdf },
  { name: 'undecoded-back', bytes: await backStressPhoto(6, 'all') },
  ...(await hardBenchInputs()).filter((h) => h.path !== 'ocr_unrotated').map((h) => ({ name: h.name, bytes: h.bytes })),
];
const only = process.env['ONLY'];
await analyseDocument({ bytes: back12 });
const RUNS = Number(process.argv[2] ?? 3);
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
for (const input of inputs) {
  if (only && input.name !== only) continue;
  const wall: number[] = [];
  const cpu: number[] = [];
  let last: Record<string, number> = {};
  let summary = '';
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    const r = await analyseDocument({ bytes: input.bytes });
    const u = process.cpuUsage(c);
    cpu.push((u.user + u.system) / 1000);
    wall.push(performance.now() - t);
    last = r.timings;
    summary = JSON.stringify({
      status: r.status,
      fc: r.failure_code,
      type: r.doc_type,
      ev: r.evidence,
      ph: r.content?.photoshopped,
      screen: r.content?.ai_analysis.internet_detection,
      fields: Object.fromEntries(Object.entries(r.content?.document_processor ?? {}).map(([k, v]) => [k, v.value])),
      emb: r.portrait_embedding?.slice(0, 4),
      pq: r.portrait_quality,
    });
  }
  process.stdout.write(
    `${input.name}: wall ${Math.round(median(wall))} ms, cpu ${Math.round(median(cpu))} ms [${cpu.map(Math.round).join(', ')}]; ${JSON.stringify(last)}\n  ${summary}\n`,
  );
}
clearInterval(sampler);
process.stdout.write(`peak RSS ${Math.round(peak / 1048576)} MB\n`);
await closeEngines();
