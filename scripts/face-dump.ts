/**
 * Dumps the face part's descriptors for offline study of the face match on the development half
 * (docs/analysis.md, 2026-11-27 18:10): each portrait found as the eval finds it, with its quality
 * (face size, detector score, brightness, sharpness), its descriptor and those of its smoothed
 * crops at 400/320/256/200 px; each selfie's own descriptor and those at portrait scales; face
 * crops as PNGs to look at. Tune on the development half only.
 * Usage: [SKIP_PORTRAITS=1] [SKIP_SELFIES=1] [SCALES=80,96,128] [DRAWS=1] [SIDES=400,320] [SMOOTH=0.8 (one σ; default the engine's)] npx tsx scripts/face-dump.ts OUTDIR [dev|dev-variant|heldout] [people]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { prepareInput } from '../server/analysis/input.js';
import { fitRaster, laplacianVariance, rasterFrom, sharpFromRaster, toGrey, cropGrey, type Raster } from '../server/analysis/raster.js';
import { detectFaces, type DetectedFace } from '../server/analysis/stages/face.js';
import { documentFaces, faceRegion } from '../server/analysis/stages/portrait.js';
import { portraitScaleDescriptor } from '../server/analysis/stages/selfie-descriptor.js';
import { HALVES, type HalfName } from '../test/fixtures/hard/config.js';
import { SELFIE_KINDS } from '../test/fixtures/hard/selfies.js';
import { hardPeople, hardPhoto, hardSelfie } from '../test/fixtures/hard/set.js';

const out = process.argv[2]!;
const half = HALVES[(process.argv[3] ?? 'dev') as HalfName];
const people = Number(process.argv[4] ?? 24);
mkdirSync(`${out}/png`, { recursive: true });

async function recropAt(raster: Raster, face: DetectedFace, side: number): Promise<number[] | null> {
  const region = faceRegion(raster, face, 0.6);
  if (!region) return null;
  const crop = await rasterFrom(
    sharpFromRaster(raster)
      .extract(region)
      .blur(0.8)
      .resize({ width: Math.round((side * region.width) / Math.max(region.width, region.height)), kernel: 'lanczos3' }),
  );
  const cx = crop.width / 2;
  const cy = crop.height / 2;
  const off = (f: DetectedFace): number => Math.hypot(f.box[0] + f.box[2] / 2 - cx, f.box[1] + f.box[3] / 2 - cy);
  const again = (await detectFaces(crop)).sort((a, b) => off(a) - off(b))[0];
  return again?.embedding ? [...again.embedding] : null;
}

async function savePng(raster: Raster, face: DetectedFace, name: string): Promise<void> {
  const region = faceRegion(raster, face, 0.4);
  if (!region) return;
  await sharpFromRaster(raster).extract(region).resize({ width: 200 }).png().toFile(`${out}/png/${name}.png`);
}

function quality(raster: Raster, face: DetectedFace): Record<string, number> {
  const g = toGrey(raster);
  const [x, y, w, h] = face.box;
  const c = cropGrey(g, Math.max(0, Math.round(x)), Math.max(0, Math.round(y)), Math.round(w), Math.round(h));
  let s = 0;
  let s2 = 0;
  for (const v of c.data) {
    s += v;
    s2 += v * v;
  }
  const n = c.data.length || 1;
  const mean = s / n;
  return { side: Math.max(w, h), score: face.score, mean, std: Math.sqrt(Math.max(0, s2 / n - mean * mean)), lapvar: laplacianVariance(c) };
}

const portraits: unknown[] = [];
if (!process.env['SKIP_PORTRAITS'])
  for (const [i, id] of hardPeople(half, people).entries()) {
    for (const kind of ['licence-front', 'passport'] as const) {
      const raster = await fitRaster((await prepareInput(await hardPhoto(half, i, kind))).raster, 2000);
      const faces = await documentFaces(raster);
      const p = faces[0];
      if (!p?.embedding) {
        portraits.push({ doc: `${i}-${kind}`, face: id.face, found: false });
        continue;
      }
      const sides: Record<string, number[] | null> = {};
      for (const side of (process.env['SIDES'] ?? '400,320,256,200').split(',').filter(Boolean).map(Number)) sides[side] = await recropAt(raster, p, side);
      await savePng(raster, p, `p-${i}-${kind}`);
      portraits.push({ doc: `${i}-${kind}`, face: id.face, found: true, q: quality(raster, p), portrait: p.portrait, embedding: p.embedding, sides });
    }
    console.error(`portraits ${i + 1}/${people}`);
  }
if (!process.env['SKIP_PORTRAITS']) writeFileSync(`${out}/portraits.json`, JSON.stringify(portraits));

const selfies: unknown[] = [];
for (const face of process.env['SKIP_SELFIES'] ? [] : half.faces) {
  for (const kind of SELFIE_KINDS) {
    for (let n = 0; n < Number(process.env['DRAWS'] ?? 3); n++) {
      const r = await rasterFrom(sharp(await hardSelfie(half, face, kind, n)));
      const d = (f: DetectedFace): number => Math.hypot(f.box[0] + f.box[2] / 2 - r.width / 2, f.box[1] + f.box[3] / 2 - r.height / 2);
      const f = (await detectFaces(r)).sort((a, c) => d(a) - d(c))[0];
      if (!f?.embedding) {
        selfies.push({ face, kind, n, found: false });
        continue;
      }
      const scales: Record<string, number[] | null> = {};
      for (const side of (process.env['SCALES'] ?? '80,96,112,128').split(',').map(Number))
        scales[side] = await portraitScaleDescriptor(r, f, side, process.env['SMOOTH'] ? [Number(process.env['SMOOTH'])] : undefined);
      if (n === 0 && (kind === 'plain' || kind === 'dim' || kind === 'low-res')) await savePng(r, f, `s-${face}-${kind}`);
      selfies.push({ face, kind, n, found: true, q: quality(r, f), own: f.embedding, scales });
    }
    console.error(`selfies face ${face} ${kind}`);
  }
}
if (!process.env['SKIP_SELFIES']) writeFileSync(`${out}/selfies.json`, JSON.stringify(selfies));
