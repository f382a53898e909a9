import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ALL_FACE_MODELS, faceModelsConfig, getFaceEngine } from '../../../server/analysis/engines.js';
import { mirrorAverage } from '../../../server/analysis/mirrored-descriptor.js';
import { rasterFrom } from '../../../server/analysis/raster.js';
import { cosineSimilarity, detectFaces } from '../../../server/analysis/stages/face.js';
import { decideSelfie, SELFIE_REVIEW_THRESHOLD } from '../../../server/analysis/stages/selfie.js';
import { selfie } from '../../fixtures/set.js';

const faceOf = async (b: Buffer) => (await detectFaces(await rasterFrom(sharp(b))))[0]!;
const mirror = (b: Buffer) => sharp(b).flop().jpeg({ quality: 90 }).toBuffer();

/** A front-camera selfie indoors: mirrored, warm light, a small sensor's resolution. */
async function warmLowResMirrored(b: Buffer): Promise<Buffer> {
  const warm = await sharp(b)
    .flop()
    .recomb([
      [1.12, 0.05, 0],
      [0.02, 0.98, 0],
      [0, 0.02, 0.72],
    ])
    .resize(200)
    .jpeg({ quality: 65 })
    .toBuffer();
  return sharp(warm).resize(480).jpeg({ quality: 80 }).toBuffer();
}

describe('mirror-averaged face descriptors', { timeout: 180_000 }, () => {
  it('gives a photo and its mirror image nearer descriptors than the plain model does', async () => {
    const engine = await getFaceEngine();
    const tf = engine.human.tf as { tensor4d(v: Float32Array, shape: number[]): unknown; dispose(t: unknown): void };
    // human's own result (descriptor not yet averaged, face crops returned), as the engine gets it; every model named, or the call runs with the last one's choice.
    const humanResult = async (b: Buffer) => {
      const r = await rasterFrom(sharp(b).removeAlpha());
      const input = tf.tensor4d(Float32Array.from(r.data), [1, r.height, r.width, 3]);
      try {
        return await engine.human.detect(input as Parameters<typeof engine.human.detect>[0], faceModelsConfig(ALL_FACE_MODELS));
      } finally {
        tf.dispose(input);
      }
    };
    // The last call through the engine ran without the descriptor (as a document capture's search
    // does): a call that did not name its models would get no descriptor here.
    const last = await rasterFrom(sharp(await selfie(0)).removeAlpha());
    await engine.detect(last.data, last.width, last.height, { ...ALL_FACE_MODELS, description: false });
    for (const person of [0, 7]) {
      const photo = await humanResult(await selfie(person));
      const mirrored = await humanResult(await mirror(await selfie(person)));
      const plain = cosineSimilarity(photo.face[0]!.embedding!, mirrored.face[0]!.embedding!);
      await mirrorAverage(engine.human, photo);
      await mirrorAverage(engine.human, mirrored);
      const averaged = cosineSimilarity(photo.face[0]!.embedding!, mirrored.face[0]!.embedding!);
      expect(averaged, `person ${person}: plain ${plain.toFixed(3)}`).toBeGreaterThan(plain);
      expect(averaged, `person ${person}`).toBeGreaterThan(0.95);
    }
  });

  it('keeps different people apart: a mirrored photo of another person is rejected', async () => {
    const reference = await faceOf(await selfie(0));
    const other = await faceOf(await mirror(await selfie(7)));
    expect(cosineSimilarity(reference.embedding!, other.embedding!)).toBeLessThan(SELFIE_REVIEW_THRESHOLD);
    const decision = await decideSelfie({ selfie: [other], reference });
    expect(decision.decision).toBe('rejected');
    expect(decision.reasons).toContain('FACE_MISMATCH');
  });

  it('matches a mirrored, warm-lit, low-resolution selfie to the same person and rejects another person', async () => {
    const reference = await faceOf(await selfie(1));
    const same = await decideSelfie({ selfie: [await faceOf(await warmLowResMirrored(await selfie(1, { margin: 0.55 })))], reference });
    expect(same.decision).toBe('complete');
    expect(same.selfie_check).toBe(true);
    const other = await decideSelfie({ selfie: [await faceOf(await warmLowResMirrored(await selfie(11, { margin: 0.55 })))], reference });
    expect(other.decision).toBe('rejected');
    expect(other.reasons).toContain('FACE_MISMATCH');
  });

  it('leaves no face crop tensors behind', async () => {
    const engine = await getFaceEngine();
    const tf = engine.human.tf as { memory(): { numTensors: number } };
    const photo = await selfie(2);
    await faceOf(photo);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) await faceOf(photo);
    expect(tf.memory().numTensors).toBe(before);
  });
});
