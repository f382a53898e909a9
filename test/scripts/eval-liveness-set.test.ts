import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { rasterFrom } from '../../server/analysis/raster.js';
import { FLASH_COLOURS } from '../../server/methods/face/rules.js';
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
    // The server's order: straight look, flash (a frame per colour), turn, closer, blink.
    expect(live.frames.map((f) => `${f.step}:${f.challenge}`)).toEqual([
      ...Array<string>(3).fill('0:neutral'),
      ...Array<string>(FLASH_COLOURS).fill('1:flash'),
      ...Array<string>(4).fill('2:turn'),
      ...Array<string>(3).fill('3:closer'),
      ...Array<string>(6).fill('4:blink'),
    ]);
    expect(live.colours).toHaveLength(FLASH_COLOURS);
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
