/**
 * The document portrait runs only the face models whose output it keeps (docs/performance.md,
 * 2026-11-28): the capture is searched without the descriptor (the crops give it), the crops
 * without emotion, anti-spoofing or liveness, and the capture's own descriptor is made only
 * when no crop shows the face. The detector is replaced by a stand-in that records each call.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FaceModels } from '../../../../server/analysis/engines.js';
import type { Raster } from '../../../../server/analysis/raster.js';
import type { DetectedFace } from '../../../../server/analysis/stages/face.js';

const calls: { width: number; models: FaceModels | undefined }[] = [];
let cropsShowFace = true;
const CAPTURE_DESCRIPTOR = [0, 0, 1];

vi.mock('../../../../server/analysis/stages/face.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../server/analysis/stages/face.js')>();
  return {
    ...real,
    detectFaces: vi.fn((raster: Raster, models?: FaceModels): Promise<DetectedFace[]> => {
      calls.push({ width: raster.width, models });
      const describe = models?.description !== false;
      if (raster.width === 1000) {
        const face: DetectedFace = { box: [400, 300, 120, 120], score: 0.9, emotions: { happy: 0.2 }, turn: 0 };
        return Promise.resolve([describe ? { ...face, embedding: CAPTURE_DESCRIPTOR } : face]);
      }
      if (!cropsShowFace) return Promise.resolve([]);
      // A crop: its face in the middle, described as the crop's side says.
      const w = raster.width;
      const face: DetectedFace = { box: [w / 4, w / 4, w / 2, w / 2], score: 0.8, emotions: {}, turn: 0 };
      return Promise.resolve([describe ? { ...face, embedding: w > 280 ? [1, 0, 0] : [0, 1, 0] } : face]);
    }),
  };
});

const { documentFaces } = await import('../../../../server/analysis/stages/portrait.js');

const capture: Raster = { data: Buffer.alloc(1000 * 800 * 3, 128), width: 1000, height: 800, channels: 3 };

describe('document portrait: the face models it runs', () => {
  beforeEach(() => {
    calls.length = 0;
    cropsShowFace = true;
  });

  it('searches the capture without the descriptor and describes the crops without emotion, anti-spoofing or liveness', async () => {
    const [portrait] = await documentFaces(capture);
    expect(calls[0]).toEqual({ width: 1000, models: { description: false, emotion: true, antispoof: false, liveness: false } });
    const crops = calls.slice(1);
    expect(crops.map((c) => c.width)).toEqual([320, 256]);
    for (const c of crops) expect(c.models).toEqual({ description: true, emotion: false, antispoof: false, liveness: false });
    // The descriptor is the crops' mean, the capture's box and emotions are kept.
    expect(portrait!.embedding![0]).toBeCloseTo(Math.SQRT1_2, 9);
    expect(portrait!.embedding![1]).toBeCloseTo(Math.SQRT1_2, 9);
    expect(portrait!.box).toEqual([400, 300, 120, 120]);
    expect(portrait!.emotions).toEqual({ happy: 0.2 });
    expect(portrait!.portrait).toMatchObject({ detector: 0.9, crop: 0.8, side: 120 });
  });

  it("takes the capture's own descriptor, searched again with every model, only when no crop shows the face", async () => {
    cropsShowFace = false;
    const [portrait] = await documentFaces(capture);
    expect(calls.map((c) => c.width)).toEqual([1000, 320, 256, 200, 1000]);
    expect(calls.at(-1)!.models).toEqual({ description: true, emotion: true, antispoof: true, liveness: true });
    expect(portrait!.embedding).toEqual(CAPTURE_DESCRIPTOR);
    expect(portrait!.portrait!.crop).toBe(0);
  });
});
