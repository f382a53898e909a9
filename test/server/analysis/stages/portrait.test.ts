import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, rasterFrom } from '../../../../server/analysis/raster.js';
import { cosineSimilarity, detectFaces } from '../../../../server/analysis/stages/face.js';
import { documentFaces, meanDescriptor, tileBoxes } from '../../../../server/analysis/stages/portrait.js';
import { faceMatchBand, SELFIE_REVIEW_THRESHOLD } from '../../../../server/analysis/stages/selfie.js';
import { DEV } from '../../../fixtures/hard/config.js';
import { hardIdentity } from '../../../fixtures/hard/identities.js';
import { hardPhoto, hardSelfie } from '../../../fixtures/hard/set.js';

describe('document portrait', { timeout: 240_000 }, () => {
  it('averages crop descriptors as unit vectors, so a longer descriptor does not outweigh a shorter one', () => {
    const mean = meanDescriptor([
      [3, 0],
      [0, 0.5],
    ]);
    expect(mean[0]).toBeCloseTo(Math.SQRT1_2, 9);
    expect(mean[1]).toBeCloseTo(Math.SQRT1_2, 9);
    expect(meanDescriptor([[0.6, 0.8]])).toEqual([0.6, 0.8].map((x) => expect.closeTo(x, 9) as number));
  });

  it('tiles cover every pixel of the image, overlapping, each smaller than it', () => {
    for (const [w, h] of [
      [843, 632],
      [1080, 720],
      [7, 5],
    ] as const) {
      const tiles = tileBoxes(w, h);
      expect(tiles).toHaveLength(4);
      for (let y = 0; y < h; y += Math.max(1, Math.floor(h / 37))) {
        for (let x = 0; x < w; x += Math.max(1, Math.floor(w / 41))) {
          const covering = tiles.filter(([l, t, tw, th]) => x >= l && x < l + tw && y >= t && y < t + th);
          expect(covering.length, `${x},${y} of ${w}x${h}`).toBeGreaterThanOrEqual(1);
        }
      }
      for (const [l, t, tw, th] of tiles) {
        expect(l + tw).toBeLessThanOrEqual(w);
        expect(t + th).toBeLessThanOrEqual(h);
        expect(tw).toBeLessThan(w);
      }
      // The middle column is in both columns of tiles: a face on the seam is whole in one of them.
      expect(tiles[0]![0] + tiles[0]![2]).toBeGreaterThan(tiles[1]![0]);
    }
  });

  it('finds the small portrait of a photographed passport the whole-image detector misses, and it matches its holder', async () => {
    // Development passport 0 (halftoned portrait under a hologram, phone capture at 843 px):
    // the detector sees no face in the whole image.
    const work = await fitRaster((await prepareInput(await hardPhoto(DEV, 0, 'passport'))).raster, 2000);
    expect(await detectFaces(work)).toEqual([]);
    const [portrait] = await documentFaces(work);
    expect(portrait?.embedding).toBeDefined();
    // The box is in the whole image's pixels, inside it.
    const [x, y, w, h] = portrait!.box;
    expect(x).toBeGreaterThanOrEqual(0);
    expect(y + h).toBeLessThanOrEqual(work.height);
    expect(w).toBeGreaterThan(40);
    // Its quality is measured beside its descriptor (stored with it for later matches).
    expect(portrait!.portrait).toMatchObject({ detector: portrait!.score, side: Math.max(w, h) });
    expect(portrait!.portrait!.crop).toBeGreaterThan(0.5);
    expect(portrait!.portrait!.brightness).toBeGreaterThan(0);
    expect(portrait!.portrait!.contrast).toBeGreaterThan(0);
    const holder = hardIdentity(DEV.seedBase, 0, DEV.faces).face;
    const selfie = (await detectFaces(await rasterFrom(sharp(await hardSelfie(DEV, holder, 'plain', 0)))))[0]!;
    const other = (
      await detectFaces(
        await rasterFrom(
          sharp(
            await hardSelfie(
              DEV,
              DEV.faces.find((f) => f !== holder)!,
              'plain',
              0,
            ),
          ),
        ),
      )
    )[0]!;
    const own = cosineSimilarity(portrait!.embedding!, selfie.embedding!);
    expect(own).toBeGreaterThanOrEqual(SELFIE_REVIEW_THRESHOLD);
    expect(own).toBeGreaterThan(cosineSimilarity(portrait!.embedding!, other.embedding!));
  });

  it('takes the descriptor from a smaller crop when the detector sees no face in the first, so the holder matches and others are rejected', async () => {
    // Development passport 5: a dim, grey portrait whose 320 px crop shows the detector no face.
    // With the whole capture's descriptor its holder's plain selfie scored 0.59 (review).
    const work = await fitRaster((await prepareInput(await hardPhoto(DEV, 5, 'passport'))).raster, 2000);
    const [portrait] = await documentFaces(work);
    expect(portrait?.embedding).toBeDefined();
    const holder = hardIdentity(DEV.seedBase, 5, DEV.faces).face;
    const selfieOf = async (face: number) => (await detectFaces(await rasterFrom(sharp(await hardSelfie(DEV, face, 'plain', 0)))))[0]!;
    expect(faceMatchBand(cosineSimilarity(portrait!.embedding!, (await selfieOf(holder)).embedding!))).toBe('match');
    for (const other of DEV.faces.filter((f) => f !== holder).slice(0, 4)) {
      const score = cosineSimilarity(portrait!.embedding!, (await selfieOf(other)).embedding!);
      expect(faceMatchBand(score), `face ${other}: ${score.toFixed(3)}`).toBe('different');
    }
  });
});
