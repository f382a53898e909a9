import { describe, expect, it } from 'vitest';
import { turnFromMesh, type DetectedFace } from '../../../../server/analysis/stages/face.js';
import { checkChallenge } from '../../../../server/analysis/stages/selfie.js';
import { LIVENESS_LIMITS, meetsStep, yawOf } from '../../../../src/capture/liveness.js';
import type { DetectedFace as WidgetFace } from '../../../../src/capture/detected-face.js';

/** Where the points that place the eyes and the nose sit, in eye-centre distances (x only). */
interface Eyes {
  rightOuter: number;
  rightInner: number;
  rightIris: number;
  leftInner: number;
  leftOuter: number;
  leftIris: number;
  nose: number;
}

/** A face mesh (478 points with the iris, 468 without) in pixels, eyes on one row. */
function meshOf(e: Eyes, iris = true): [number, number][] {
  const mesh: [number, number][] = Array.from({ length: iris ? 478 : 468 }, () => [300, 300]);
  const at = (x: number, y = 200): [number, number] => [300 + 100 * x, y];
  mesh[33] = at(e.rightOuter);
  mesh[133] = at(e.rightInner);
  mesh[362] = at(e.leftInner);
  mesh[263] = at(e.leftOuter);
  mesh[1] = at(e.nose, 260);
  if (iris) {
    mesh[468] = at(e.rightIris);
    mesh[473] = at(e.leftIris);
  }
  return mesh;
}

const serverFace = (mesh: [number, number][]): DetectedFace => ({ box: [150, 100, 300, 350], score: 0.9, emotions: {}, turn: turnFromMesh(mesh), mesh });
/** The widget's face: BlazeFace's eye keypoints are the eyes' centres (the iris centres here). */
const widgetFace = (mesh: [number, number][]): WidgetFace => {
  const p = (i: number) => ({ x: mesh[i]![0] / 600, y: mesh[i]![1] / 600 });
  return { box: { x: 0.25, y: 0.17, width: 0.5, height: 0.58 }, keypoints: [p(468), p(473), p(1), p(1), p(33), p(263)], score: 0.9 };
};

// Looking straight: eyes symmetric about the nose.
const straight: Eyes = { rightOuter: -0.75, rightInner: -0.25, rightIris: -0.5, leftInner: 0.25, leftOuter: 0.75, leftIris: 0.5, nose: 0 };
// Turned as development face 0 was (a relief turned 30°): the nose moved 0.3 eye-centre distances
// from the irises' middle, while the far eye's outer corner swung out and kept the outer corners'
// middle near the nose (that measure moved 0.125, the widget's 0.3).
const turned: Eyes = { rightOuter: -0.7, rightInner: -0.3, rightIris: -0.5, leftInner: 0.3, leftOuter: 0.9, leftIris: 0.5, nose: 0.3 };

describe('the head turn the server measures', () => {
  it('is the widget’s yaw on the same points', () => {
    for (const e of [straight, turned]) expect(turnFromMesh(meshOf(e))).toBeCloseTo(yawOf(widgetFace(meshOf(e))), 10);
  });

  it('accepts a turn the widget’s gate accepted (the outer eye corners moved far less)', () => {
    const base = widgetFace(meshOf(straight));
    const moved = widgetFace(meshOf(turned));
    expect(meetsStep('turn_left', moved, base.box.width, LIVENESS_LIMITS, yawOf(base))).toBe(true);
    const outcome = checkChallenge('turn_left', serverFace(meshOf(straight)), serverFace(meshOf(turned)));
    expect(outcome.measured).toBeCloseTo(0.3, 5);
    expect(outcome.passed).toBe(true);
  });

  it('still refuses a head that barely turned, and a turn the other way', () => {
    const little: Eyes = { ...straight, nose: 0.1 };
    expect(checkChallenge('turn_left', serverFace(meshOf(straight)), serverFace(meshOf(little))).passed).toBe(false);
    expect(checkChallenge('turn_right', serverFace(meshOf(straight)), serverFace(meshOf(turned))).passed).toBe(false);
  });

  it('uses the middle of each eye’s corners when the iris model did not run', () => {
    // Corner middles at -0.5 and +0.5 (straight) and -0.5 and +0.6 (turned): 0.3 / 1.1 and 0.
    expect(turnFromMesh(meshOf(straight, false))).toBeCloseTo(0, 10);
    expect(turnFromMesh(meshOf(turned, false))).toBeCloseTo((0.3 - 0.05) / 1.1, 10);
  });

  it('reads a tilted head as the same turn as an upright one, on the device and on the server', () => {
    // The head tilted 25° about the middle of its face (held-out faces 11 and 14 tilt their heads):
    // measured along the image's x, the nose 0.6 eye distances below the eyes read as a 0.25 turn.
    const tilt = (mesh: [number, number][], deg: number): [number, number][] => {
      const [c, s] = [Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)];
      return mesh.map(([x, y]) => [300 + (x - 300) * c - (y - 230) * s, 230 + (x - 300) * s + (y - 230) * c]);
    };
    for (const deg of [-25, 25]) {
      expect(turnFromMesh(tilt(meshOf(straight), deg))).toBeCloseTo(0, 10);
      expect(turnFromMesh(tilt(meshOf(turned), deg))).toBeCloseTo(0.3, 10);
      const looking = widgetFace(tilt(meshOf(straight), deg));
      expect(meetsStep('look_straight', looking, null)).toBe(true);
      expect(yawOf(widgetFace(tilt(meshOf(turned), deg)))).toBeCloseTo(0.3, 10);
      // BlazeFace normalises x by the frame's width and y by its height (a 480 × 600 frame here).
      const p = (q: [number, number]): { x: number; y: number } => ({ x: q[0] / 480, y: q[1] / 600 });
      const m = tilt(meshOf(turned), deg);
      const narrow: WidgetFace = {
        box: { x: 0.3, y: 0.17, width: 0.6, height: 0.58 },
        keypoints: [p(m[468]!), p(m[473]!), p(m[1]!)],
        score: 0.9,
        aspect: 480 / 600,
      };
      expect(yawOf(narrow)).toBeCloseTo(0.3, 10);
      // Whichever eye a detector lists first (the server's mesh lists the image's right one first).
      const swapped: WidgetFace = { ...narrow, keypoints: [p(m[473]!), p(m[468]!), p(m[1]!)] };
      expect(yawOf(swapped)).toBeCloseTo(0.3, 10);
      const mirrored = m.map(([x, y]): [number, number] => [600 - x, y]);
      expect(turnFromMesh(mirrored)).toBeCloseTo(-0.3, 10);
    }
  });
});
