import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { rasterFrom } from '../../server/analysis/raster.js';
import { detectFaces } from '../../server/analysis/stages/face.js';
import { PLANAR_RESIDUAL_MAX, planarityResidual } from '../../server/analysis/stages/liveness.js';
import { TURN_DELTA } from '../../server/analysis/stages/selfie.js';
import { DEV } from '../fixtures/hard/config.js';
import { denseSession } from '../fixtures/hard/liveness-sessions.js';

const faceOf = async (b: Buffer) => (await detectFaces(await rasterFrom(sharp(b))))[0]!;

describe('liveness sessions of the evaluation set', { timeout: 240_000 }, () => {
  it('turns a bona fide head as a 3-D surface and a print as a plane', async () => {
    const live = await denseSession(DEV, 3, 'bona-fide');
    const print = await denseSession(DEV, 3, 'print-closer');
    expect(live.frames.map((f) => `${f.step}:${f.challenge}`)).toEqual([
      '0:neutral',
      '0:neutral',
      '0:neutral',
      '1:turn',
      '1:turn',
      '1:turn',
      '1:turn',
      '2:closer',
      '2:closer',
      '2:closer',
    ]);
    const held = (s: typeof live, c: string) => s.frames.filter((f) => f.challenge === c).at(-1)!.bytes;
    const [ls, lt, ps, pt] = await Promise.all([
      faceOf(held(live, 'neutral')),
      faceOf(held(live, 'turn')),
      faceOf(held(print, 'neutral')),
      faceOf(held(print, 'turn')),
    ]);
    expect(Math.abs(lt.turn - ls.turn)).toBeGreaterThanOrEqual(TURN_DELTA);
    expect(planarityResidual(ls, lt)).toBeGreaterThanOrEqual(PLANAR_RESIDUAL_MAX);
    expect(planarityResidual(ps, pt)).toBeLessThan(PLANAR_RESIDUAL_MAX);
  });
});
