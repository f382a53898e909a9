/** CPU of the screen and lattice checks alone on the 12 MP bench photos: ROOT=<checkout> node --import tsx bench/_checks.ts */
import { readFileSync } from 'node:fs';
const root = process.env['ROOT'] ?? '..';
const { prepareInput } = (await import(`${root}/server/analysis/input.ts`)) as typeof import('../server/analysis/input.js');
const { detectRecapture } = (await import(`${root}/server/analysis/stages/recapture.ts`)) as typeof import('../server/analysis/stages/recapture.js');
const { detectGridInconsistency } = (await import(`${root}/server/analysis/stages/jpeg-grid.ts`)) as typeof import('../server/analysis/stages/jpeg-grid.js');
const median = (xs: number[]): number => Math.round([...xs].sort((a, b) => a - b)[xs.length >> 1]!);
for (const name of ['licence-front-12mp.jpg', 'licence-back-12mp.jpg']) {
  const p = await prepareInput(readFileSync(`test/.fixtures-cache/v6/bench/${name}`));
  const grid: number[] = [];
  const screen: number[] = [];
  for (let i = 0; i < 5; i++) {
    let c = process.cpuUsage();
    detectGridInconsistency(p.raster);
    let u = process.cpuUsage(c);
    grid.push((u.user + u.system) / 1000);
    c = process.cpuUsage();
    await detectRecapture(p.raster, 'document');
    u = process.cpuUsage(c);
    screen.push((u.user + u.system) / 1000);
  }
  process.stdout.write(
    `${name}: jpeg_grid ${median(grid)} ms [${grid.map(Math.round).join(' ')}], recapture ${median(screen)} ms [${screen.map(Math.round).join(' ')}]\n`,
  );
}
