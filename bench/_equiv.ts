/**
 * Equivalence harness: the screen, lattice and portrait stages' outputs of the checkout at ROOT
 * (default this one) on N development people's captures, as JSON, to diff two checkouts:
 * ROOT=<checkout> node --import tsx bench/_equiv.ts N recapture,grid,faces > out.json
 */
import { readFileSync } from 'node:fs';
import { HALVES } from '../test/fixtures/hard/config.js';
import { hardPhoto, hardScreen, hardTampered, hardRetyped } from '../test/fixtures/hard/set.js';
const root = process.env['ROOT'] ?? '..';
const n = Number(process.argv[2] ?? 16);
const parts = (process.argv[3] ?? 'recapture,grid,faces').split(',');
const { prepareInput } = (await import(`${root}/server/analysis/input.ts`)) as typeof import('../server/analysis/input.js');
const { fitRaster } = (await import(`${root}/server/analysis/raster.ts`)) as typeof import('../server/analysis/raster.js');
const { detectRecapture } = (await import(`${root}/server/analysis/stages/recapture.ts`)) as typeof import('../server/analysis/stages/recapture.js');
const { detectGridInconsistency } = (await import(`${root}/server/analysis/stages/jpeg-grid.ts`)) as typeof import('../server/analysis/stages/jpeg-grid.js');
const { documentFaces } = (await import(`${root}/server/analysis/stages/portrait.ts`)) as typeof import('../server/analysis/stages/portrait.js');
const { closeEngines } = (await import(`${root}/server/analysis/engines.ts`)) as typeof import('../server/analysis/engines.js');
const half = HALVES[(process.env['HALF'] ?? 'dev') as 'dev']!;
const inputs: [string, () => Promise<Buffer>][] = [
  ['bench-front', async () => readFileSync('test/.fixtures-cache/v6/bench/licence-front-12mp.jpg')],
  ['bench-back', async () => readFileSync('test/.fixtures-cache/v6/bench/licence-back-12mp.jpg')],
];
for (let i = 0; i < n; i++) {
  for (const kind of ['licence-front', 'licence-back', 'passport'] as const) inputs.push([`${i}-${kind}`, () => hardPhoto(half, i, kind)]);
  inputs.push([`${i}-screen`, () => hardScreen(half, i)], [`${i}-tampered`, () => hardTampered(half, i)], [`${i}-retyped`, () => hardRetyped(half, i)]);
}
const out: Record<string, unknown> = {};
const cpu = { recapture: 0, grid: 0, faces: 0 };
for (const [name, make] of inputs) {
  const p = await prepareInput(await make());
  const r: Record<string, unknown> = {};
  let c = process.cpuUsage();
  const took = (): number => {
    const u = process.cpuUsage(c);
    c = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  if (parts.includes('recapture')) {
    r['recapture'] = await detectRecapture(p.raster, 'document');
    r['frame'] = await detectRecapture(p.raster);
    cpu.recapture += took();
  }
  if (parts.includes('grid')) {
    took();
    r['grid'] = detectGridInconsistency(p.raster);
    cpu.grid += took();
  }
  if (parts.includes('faces') && !name.includes('back') && !name.includes('screen')) {
    const w = await fitRaster(p.raster, 2000);
    took();
    const f = await documentFaces(w);
    cpu.faces += took();
    r['faces'] = f.slice(0, 1).map((x) => ({ box: x.box, score: x.score, embedding: x.embedding, portrait: x.portrait, emotions: x.emotions, turn: x.turn }));
    r['faceCount'] = f.length;
  }
  out[name] = r;
  process.stderr.write(`${name} `);
}
process.stderr.write(`\ncpu ms ${JSON.stringify(cpu)}\n`);
process.stdout.write(JSON.stringify(out));
await closeEngines();
