/**
 * Per-input CPU and stage timings of the document pipeline only (bench/analysis.ts without the
 * pool and API part): `node --import tsx bench/_stages.ts [runs]`.
 */
import sharp from 'sharp';
import { cached } from '../test/fixtures/cache.js';
import { photograph } from '../test/fixtures/documents.js';
import { pdfWithJpeg } from '../test/fixtures/pdf.js';
import { flatDocument } from '../test/fixtures/set.js';
import { backStressPhoto } from '../test/fixtures/hard/back-stress.js';

const root = process.env['ROOT'] ?? '..';
const { closeEngines } = (await import(`${root}/server/analysis/engines.ts`)) as typeof import('../server/analysis/engines.js');
const { analyseDocument } = (await import(`${root}/server/analysis/pipeline.ts`)) as typeof import('../server/analysis/pipeline.js');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const front12 = await cached('bench/licence-front-12mp.jpg', async () =>
  photograph(await flatDocument(0, 'licence-front'), { width: 4000, height: 3000, angle: 2, quality: 90 }),
);
const back12 = await cached('bench/licence-back-12mp.jpg', async () =>
  photograph(await flatDocument(0, 'licence-back'), { width: 4000, height: 3000, angle: 2, quality: 90 }),
);
const passportJpeg = await sharp(await flatDocument(1, 'passport'))
  .jpeg({ quality: 90 })
  .toBuffer();
const pdf = pdfWithJpeg(passportJpeg, 1476, 1039);
const inputs = [
  { name: 'front', bytes: front12 },
  { name: 'back', bytes: back12 },
  { name: 'passport', bytes: pdf },
  { name: 'undecoded-back', bytes: await backStressPhoto(5, 'tilt') },
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
