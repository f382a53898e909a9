/* Throwaway dump (development half only): portraits with quality and per-crop detector scores, selfies at 96 px. */
import { mkdirSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { prepareInput } from '../server/analysis/input.js';
import { fitRaster, laplacianVariance, rasterFrom, sharpFromRaster, toGrey, cropGrey, type Raster } from '../server/analysis/raster.js';
import { detectFaces, type DetectedFace } from '../server/analysis/stages/face.js';
import { documentFaces, faceRegion } from '../server/analysis/stages/portrait.js';
import { matchDescriptor } from '../server/analysis/stages/selfie-descriptor.js';
import { DEV, HELDOUT } from '../test/fixtures/hard/config.js';
import { SELFIE_KINDS } from '../test/fixtures/hard/selfies.js';
import { hardPeople, hardPhoto, hardSelfie } from '../test/fixtures/hard/set.js';

const out = process.argv[2]!;
const half = process.argv[3] === 'heldout' ? HELDOUT : DEV;
const people = Number(process.argv[4] ?? 24);
const draws = Number(process.env['DRAWS'] ?? 1);
mkdirSync(out, { recursive: true });

async function recropAt(raster: Raster, face: DetectedFace, side: number): Promise<{ score: number; box: number[]; embedding: number[] } | null> {
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
  return again?.embedding ? { score: again.score, box: [...again.box], embedding: [...again.embedding] } : null;
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

if (!process.env['SKIP_PORTRAITS']) {
  const portraits: unknown[] = [];
  for (const [i, id] of hardPeople(half, people).entries()) {
    for (const kind of ['licence-front', 'passport'] as const) {
      const raster = await fitRaster((await prepareInput(await hardPhoto(half, i, kind))).raster, 2000);
      const faces = await documentFaces(raster);
      const p = faces[0];
      if (!p?.embedding) {
        portraits.push({ doc: `${i}-${kind}`, face: id.face, found: false });
        continue;
      }
      const sides: Record<string, unknown> = {};
      for (const side of [320, 256, 200]) sides[side] = await recropAt(raster, p, side);
      portraits.push({ doc: `${i}-${kind}`, face: id.face, found: true, faces: faces.length, q: quality(raster, p), embedding: p.embedding, sides });
    }
    console.error(`portraits ${i + 1}/${people}`);
    writeFileSync(`${out}/portraits.json`, JSON.stringify(portraits));
  }
}
if (!process.env['SKIP_SELFIES']) {
  const selfies: unknown[] = [];
  for (const face of half.faces) {
    for (const kind of SELFIE_KINDS) {
      for (let n = 0; n < draws; n++) {
        const r = await rasterFrom(sharp(await hardSelfie(half, face, kind, n)));
        const d = (f: DetectedFace): number => Math.hypot(f.box[0] + f.box[2] / 2 - r.width / 2, f.box[1] + f.box[3] / 2 - r.height / 2);
        const f = (await detectFaces(r)).sort((a, c) => d(a) - d(c))[0];
        const m = f ? await matchDescriptor(r, f) : null;
        selfies.push(m ? { face, kind, n, found: true, q: quality(r, f!), match: m } : { face, kind, n, found: false });
      }
      console.error(`selfies face ${face} ${kind}`);
    }
    writeFileSync(`${out}/selfies.json`, JSON.stringify(selfies));
  }
}
