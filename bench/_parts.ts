/**
 * Each part of the bench's 12 MP front analysis alone, one after another (no overlap), CPU of all
 * threads and wall, median of N: `node --import tsx bench/_parts.ts [N]`. `ocr_sharp` is OCR's page
 * preparation in sharp (1800 px, CLAHE, PNG), `recognize` tesseract's own read of it.
 */
import { benchInputs } from './analysis-inputs.js';
import { prepareInput } from '../server/analysis/input.js';
import { fitRaster, toGrey } from '../server/analysis/raster.js';
import { uprightPage } from '../server/analysis/stages/ocr.js';
import { getTesseract } from '../server/analysis/engines.js';
import { documentFaces } from '../server/analysis/stages/portrait.js';
import { detectPastedRegions } from '../server/analysis/stages/tamper.js';
import { detectGridInconsistency } from '../server/analysis/stages/jpeg-grid.js';
import { detectRecapture } from '../server/analysis/stages/recapture.js';
import { assessQuality } from '../server/analysis/stages/quality.js';
import sharp from 'sharp';
const { front12 } = await benchInputs();
const acc = new Map<string, { cpu: number[]; wall: number[] }>();
async function part<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
  const t = performance.now();
  const c = process.cpuUsage();
  const r = await fn();
  const u = process.cpuUsage(c);
  const a = acc.get(name) ?? { cpu: [], wall: [] };
  a.cpu.push((u.user + u.system) / 1000);
  a.wall.push(performance.now() - t);
  acc.set(name, a);
  return r;
}
const tess = await getTesseract('text');
for (let i = 0; i < Number(process.argv[2] ?? 4); i++) {
  const p = await part('input', () => prepareInput(front12));
  await part('quality', () => assessQuality(p.raster));
  const work = await part('downscale', () => fitRaster(p.raster, 2000));
  const grey = toGrey(work);
  const page = await part('upright', () => uprightPage({ ...grey }));
  const png = await part('ocr_sharp', () =>
    sharp(Buffer.from(page.data.buffer, page.data.byteOffset, page.data.byteLength), { raw: { width: page.width, height: page.height, channels: 1 } })
      .resize({ width: 1800, height: 1800, fit: 'inside' })
      .clahe({ width: 64, height: 64 })
      .normalise()
      .extractChannel(0)
      .png({ compressionLevel: 1 })
      .toBuffer(),
  );
  await part('recognize', () => tess.recognize(png, {}, { text: true, blocks: true }));
  await part('faces', () => documentFaces(work));
  await part('tamper', () => detectPastedRegions(grey));
  await part('jpeg_grid', () => detectGridInconsistency(p.raster));
  await part('recapture', () => detectRecapture(p.raster, 'document'));
}
const med = (xs: number[]): number => Math.round([...xs].sort((a, b) => a - b)[xs.length >> 1]!);
for (const [k, v] of acc)
  process.stdout.write(`${k.padEnd(10)} cpu ${String(med(v.cpu)).padStart(5)} wall ${String(med(v.wall)).padStart(5)}  [${v.cpu.map(Math.round).join(' ')}]\n`);
process.exit(0);
