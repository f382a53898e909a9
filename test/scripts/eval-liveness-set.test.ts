import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { rasterFrom } from '../../server/analysis/raster.js';
import { FLASH_COLOURS } from '../../server/methods/face/rules.js';
import { detectFaces } from '../../server/analysis/stages/face.js';
import { PLANAR_RESIDUAL_MAX, planarityResidual } from '../../server/analysis/stages/liveness.js';
import { TURN_DELTA } from '../../server/analysis/stages/selfie.js';
import { DEV } from '../fixtures/hard/config.js';
import { denseSession } from '../fixtures/hard/liveness-sessions.js';
import { widgetFace } from '../fixtures/hard/widget-move.js';
import { LIVENESS_LIMITS, yawOf } from '../../src/capture/liveness.js';

const faceOf = async (b: Buffer) => (await detectFaces(await rasterFrom(sharp(b))))[0]!;
/** The widget's yaw of the frame's face (keypoints from the mesh), null without one. */
const widgetYaw = async (b: Buffer): Promise<number | null> => {
  const r = await rasterFrom(sharp(b));
  const f = (await detectFaces(r))[0];
  const w = f ? widgetFace(f, r.width, r.height) : null;
  return w ? yawOf(w) : null;
};

describe('liveness sessions of the evaluation set', { timeout: 240_000 }, () => {
  it('turns a bona fide head as a 3-D surface and a print as a plane', async () => {
    const live = await denseSession(DEV, 3, 'bona-fide');
    const print = await denseSession(DEV, 3, 'print-closer');
    // The server's order: straight look, flash (a frame per colour), turn, closer, blink; a move's
    // frames are those the widget keeps (3-6, ended by its gate), the print's are fixed.
    expect(live.device).toBeNull();
    const count = (s: typeof live, c: string) => s.frames.filter((f) => f.challenge === c).length;
    expect(['neutral', 'flash', 'blink'].map((c) => count(live, c))).toEqual([3, FLASH_COLOURS, 6]);
    for (const c of ['turn', 'closer']) {
      expect(count(live, c)).toBeGreaterThanOrEqual(3);
      expect(count(live, c)).toBeLessThanOrEqual(6);
    }
    expect(live.frames.map((f) => f.step)).toEqual([...live.frames.map((f) => f.step)].sort((a, b) => a - b));
    expect(print.frames.map((f) => `${f.step}:${f.challenge}`)).toEqual([
      ...Array<string>(3).fill('0:neutral'),
      ...Array<string>(FLASH_COLOURS).fill('1:flash'),
      ...Array<string>(4).fill('2:turn'),
      ...Array<string>(3).fill('3:closer'),
      ...Array<string>(6).fill('4:blink'),
    ]);
    // Every turn frame sent shows a face; they are spread over the move (move-frames.ts): the
    // first before the gate, the last, the held pose, past it (|yaw| ≥ 0.3, the widget's measure).
    const turns = await Promise.all(live.frames.filter((f) => f.challenge === 'turn').map((f) => widgetYaw(f.bytes)));
    expect(turns.every((y) => y !== null)).toBe(true);
    expect(Math.abs(turns[0]!)).toBeLessThan(LIVENESS_LIMITS.turnYaw);
    expect(Math.abs(turns.at(-1)!)).toBeGreaterThanOrEqual(LIVENESS_LIMITS.turnYaw);
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
