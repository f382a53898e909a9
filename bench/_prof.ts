/** Main-thread CPU profile of one bench input after a warm run (open the file in Chrome DevTools or speedscope): `ONLY=front node --import tsx bench/_prof.ts OUT.cpuprofile` */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { backStressPhoto } from '../test/fixtures/hard/back-stress.js';
import { benchInputs } from './analysis-inputs.js';
import { analyseDocument } from '../server/analysis/pipeline.js';
import { closeEngines } from '../server/analysis/engines.js';
const { front12, back12, passportPdf } = await benchInputs();
const pick: Record<string, () => Promise<Buffer>> = {
  front: async () => front12,
  back: async () => back12,
  passport: async () => passportPdf,
  'undecoded-back': () => backStressPhoto(6, 'all'),
};
const bytes = await pick[process.env['ONLY'] ?? 'front']!();
await analyseDocument({ bytes });
const s = new Session();
s.connect();
await s.post('Profiler.enable');
await s.post('Profiler.setSamplingInterval', { interval: 500 });
await s.post('Profiler.start');
const c = process.cpuUsage();
const r = await analyseDocument({ bytes });
const u = process.cpuUsage(c);
const { profile } = await s.post('Profiler.stop');
writeFileSync(process.argv[2]!, JSON.stringify(profile));
process.stdout.write(`cpu ${Math.round((u.user + u.system) / 1000)} ms ${JSON.stringify(r.timings)}\n`);
await closeEngines();
