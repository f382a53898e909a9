import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { rasterFrom, type Raster } from '../../../../server/analysis/raster.js';
import { detectFaces, type DetectedFace } from '../../../../server/analysis/stages/face.js';
import { refindFace, sameFacePlace, searchRegion, shiftFace } from '../../../../server/analysis/stages/lost-face.js';
import { selfie } from '../../../fixtures/set.js';

/**
 * A 1280×960 frame holding selfie 2 scaled to `width` pixels wide at (600, 400), and where its face
 * lies in the frame: a face of about 30 pixels is too small for the detector run on the whole
 * frame, as a profile-like face tinted by the flash is too faint (development face 4).
 */
async function smallFaceFrame(width: number): Promise<{ frame: Raster; box: DetectedFace['box'] }> {
  const s = await selfie(2);
  const whole = (await detectFaces(await rasterFrom(sharp(s))))[0]!;
  const k = width / (await sharp(s).metadata()).width!;
  const small = await sharp(s).resize(width).toBuffer();
  const frame = await rasterFrom(
    sharp({ create: { width: 1280, height: 960, channels: 3, background: '#777' } })
      .composite([{ input: small, left: 600, top: 400 }])
      .jpeg(),
  );
  const [x, y, w, h] = whole.box;
  return { frame, box: [600 + x * k, 400 + y * k, w * k, h * k] };
}

describe('a face lost in a dense frame run, searched for again where it was', { timeout: 180_000 }, () => {
  it('finds a face the whole-frame detector misses around the last face’s box, in frame pixels', async () => {
    const { frame, box } = await smallFaceFrame(64);
    expect(await detectFaces(frame)).toEqual([]);
    const found = await refindFace(frame, box);
    expect(found.length).toBe(1);
    const f = found[0]!;
    expect(sameFacePlace(f.box, box)).toBe(true);
    expect(Math.abs(f.box[0] - box[0])).toBeLessThan(box[2] * 0.25);
    expect(Math.abs(f.box[1] - box[1])).toBeLessThan(box[3] * 0.25);
    // The mesh moved with the box: its points lie on the face in the frame.
    const nose = f.mesh?.[1];
    expect(nose && nose[0] > f.box[0] && nose[0] < f.box[0] + f.box[2] && nose[1] > f.box[1] && nose[1] < f.box[1] + f.box[3]).toBe(true);
  });

  it('finds nothing where the last face was not', async () => {
    const { frame } = await smallFaceFrame(64);
    expect(await refindFace(frame, [100, 100, 30, 30])).toEqual([]);
  });

  it('searches a region around the box clamped to the frame, and keeps only a face of the same place and size', () => {
    expect(searchRegion(480, 600, [204, 103, 200, 200], 0.5)).toEqual({ left: 104, top: 3, width: 376, height: 400 });
    expect(searchRegion(480, 600, [0, 0, 10, 10], 0.25)).toBeNull();
    const last = [200, 100, 200, 200] as const;
    expect(sameFacePlace([180, 90, 240, 240], last)).toBe(true);
    expect(sameFacePlace([410, 100, 200, 200], last)).toBe(false); // beside it
    expect(sameFacePlace([280, 180, 40, 40], last)).toBe(false); // an echo a tenth its size
    expect(sameFacePlace([0, 0, 600, 600], last)).toBe(false);
    const moved = shiftFace({ box: [1, 2, 3, 4], score: 1, emotions: {}, turn: 0, mesh: [[5, 6]] }, 10, 20);
    expect(moved.box).toEqual([11, 22, 3, 4]);
    expect(moved.mesh).toEqual([[15, 26]]);
  });
});
