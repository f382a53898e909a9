import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { getFaceEngine } from '../../../server/analysis/engines.js';
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
    .resize(140)
    .jpeg({ quality: 65 })
    .toBuffer();
  return sharp(warm).resize(480).jpeg({ quality: 80 }).toBuffer();
}

describe('mirror-averaged face descriptors', { timeout: 180_000 }, () => {
  it('gives a photo and its mirror image nearly the same descriptor', async () => {
    // Without the averaging the plain descriptor of these photos and their mirror images differ
    // (cosine about 0.92 for person 0); with it they are the same face.
    for (const person of [0, 7]) {
      const photo = await selfie(person);
      const plain = await faceOf(photo);
      const mirrored = await faceOf(await mirror(photo));
      expect(cosineSimilarity(plain.embedding!, mirrored.embedding!), `person ${person}`).toBeGreaterThan(0.98);
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
    const reference = await faceOf(await selfie(4));
    const same = await decideSelfie({ selfie: [await faceOf(await warmLowResMirrored(await selfie(4, { margin: 0.55 })))], reference });
    expect(same.decision).toBe('complete');
    expect(same.selfie_check).toBe(true);
    const other = await decideSelfie({ selfie: [await faceOf(await warmLowResMirrored(await selfie(14, { margin: 0.55 })))], reference });
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
