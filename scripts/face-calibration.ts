/**
 * Face-match calibration (`npx tsx scripts/face-calibration.ts`): every demo face under the
 * degradations a phone selfie suffers (mirrored, low resolution, blur, warm light, dim, heavy
 * JPEG, other crop), scored against every other selfie. Identities are split in two: thresholds
 * are chosen on the development half, the held-out half is only reported. Prints genuine and
 * impostor counts, TAR and FAR at the thresholds, for the cosine score and, for comparison,
 * @vladmandic/human's scaled Euclidean similarity used before.
 */
import sharp from 'sharp';
import { rasterFrom } from '../server/analysis/raster.js';
import { detectFaces, faceSimilarity } from '../server/analysis/stages/face.js';
import { SELFIE_MATCH_THRESHOLD } from '../server/analysis/stages/selfie.js';
import { getFaceEngine } from '../server/analysis/engines.js';
import { FACE_BOXES } from '../test/fixtures/faces.js';
import { selfie } from '../test/fixtures/set.js';

/** The degradations, each a function of the clean 480 px selfie. */
const DEGRADATIONS: Record<string, (face: number) => Promise<Buffer>> = {
  clean: (f) => selfie(f),
  wide_crop: (f) => selfie(f, { margin: 0.7, shift: 0.1 }),
  mirrored: async (f) =>
    sharp(await selfie(f))
      .flop()
      .jpeg()
      .toBuffer(),
  low_res: async (f) =>
    sharp(
      await sharp(await selfie(f))
        .resize(160)
        .jpeg({ quality: 60 })
        .toBuffer(),
    )
      .resize(480)
      .jpeg()
      .toBuffer(),
  blurred: async (f) =>
    sharp(await selfie(f))
      .blur(2.5)
      .jpeg({ quality: 75 })
      .toBuffer(),
  warm_light: async (f) =>
    sharp(await selfie(f))
      .recomb([
        [1.15, 0.05, 0],
        [0.02, 0.95, 0],
        [0, 0, 0.7],
      ])
      .jpeg()
      .toBuffer(),
  dim: async (f) =>
    sharp(await selfie(f))
      .modulate({ brightness: 0.45 })
      .jpeg({ quality: 70 })
      .toBuffer(),
};

interface Sample {
  readonly face: number;
  readonly variant: string;
  readonly e: readonly number[];
}

const samples: Sample[] = [];
for (let f = 0; f < FACE_BOXES.length; f++) {
  for (const [variant, make] of Object.entries(DEGRADATIONS)) {
    const face = (await detectFaces(await rasterFrom(sharp(await make(f)))))[0];
    if (face?.embedding) samples.push({ face: f, variant, e: face.embedding });
  }
}
const engine = await getFaceEngine();
const euclid = (a: readonly number[], b: readonly number[]) => engine.human.match.similarity([...a], [...b]);

/** Identity split: even faces tune, odd faces are held out. */
const half = (f: number): 'dev' | 'held-out' => (f % 2 === 0 ? 'dev' : 'held-out');
const score = async (name: string, sim: (a: readonly number[], b: readonly number[]) => number | Promise<number>) => {
  for (const h of ['dev', 'held-out'] as const) {
    const set = samples.filter((s) => half(s.face) === h);
    const gen: number[] = [];
    const imp: number[] = [];
    for (let i = 0; i < set.length; i++)
      for (let j = i + 1; j < set.length; j++) (set[i]!.face === set[j]!.face ? gen : imp).push(await sim(set[i]!.e, set[j]!.e));
    gen.sort((a, b) => a - b);
    imp.sort((a, b) => a - b);
    console.log(
      `\n${name} — ${h}: ${gen.length} genuine, ${imp.length} impostor pairs; impostor max ${imp.at(-1)!.toFixed(3)}, genuine min ${gen[0]!.toFixed(3)}`,
    );
    const mean = imp.reduce((a, b) => a + b, 0) / imp.length;
    const sd = Math.sqrt(imp.reduce((a, b) => a + (b - mean) ** 2, 0) / imp.length);
    // FAR 0.01 % under a normal fit of the impostor scores: z = 3.719.
    console.log(`  impostor mean ${mean.toFixed(3)} sd ${sd.toFixed(3)}; normal-fit threshold for FAR 0.01 %: ${(mean + 3.719 * sd).toFixed(3)}`);
    const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
    console.log(
      `  impostor p99 ${q(imp, 0.99).toFixed(3)} p99.9 ${q(imp, 0.999).toFixed(3)}; genuine p1 ${q(gen, 0.01).toFixed(3)} p5 ${q(gen, 0.05).toFixed(3)}`,
    );
    for (const t of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8]) {
      const tar = gen.filter((x) => x >= t).length / gen.length;
      const far = imp.filter((x) => x >= t).length / imp.length;
      console.log(`  t=${t.toFixed(2)} TAR ${(100 * tar).toFixed(1)} % FAR ${(100 * far).toFixed(2)} % (${imp.filter((x) => x >= t).length})`);
    }
  }
};
console.log(`${samples.length} selfies of ${FACE_BOXES.length} people; match threshold in use: ${SELFIE_MATCH_THRESHOLD}`);
await score('human scaled Euclidean', euclid);
await score('cosine on L2-normalised embeddings', faceSimilarity);
console.log(`\nGenuine pairs (each variant against the clean selfie of the same face) at the match threshold ${SELFIE_MATCH_THRESHOLD}:`);
for (const v of Object.keys(DEGRADATIONS).filter((k) => k !== 'clean')) {
  const pairs = samples
    .filter((s) => s.variant === v)
    .flatMap((s) => samples.filter((r) => r.variant === 'clean' && r.face === s.face).map((r) => [s, r] as const));
  const ok = (await Promise.all(pairs.map(([s, r]) => faceSimilarity(s.e, r.e)))).filter((x) => x >= SELFIE_MATCH_THRESHOLD).length;
  console.log(`  ${v}: ${ok}/${pairs.length} accepted (${FACE_BOXES.length - pairs.length} faces not found)`);
}
