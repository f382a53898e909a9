import { describe, expect, it } from 'vitest';
import { fitHomography, homographyResidual, project, trimmedResidual, type Point2 } from '../../../../server/analysis/stages/planarity.js';

/** A face-like relief: an ellipsoid cap with a nose, as (x, y, z) points around the origin. */
function faceRelief(flat: boolean): [number, number, number][] {
  const points: [number, number, number][] = [];
  for (let i = -6; i <= 6; i++) {
    for (let j = -8; j <= 8; j++) {
      const x = i * 10;
      const y = j * 10;
      const cap = Math.max(0, 1 - (x / 70) ** 2 - (y / 90) ** 2);
      const nose = 25 * Math.exp(-(x ** 2 + (y + 5) ** 2) / 300);
      points.push([x, y, flat ? 0 : 45 * Math.sqrt(cap) + nose]);
    }
  }
  return points;
}

/** Pinhole view of points turned `deg` about the vertical axis, camera 400 units away. */
function view(points: [number, number, number][], deg: number): Point2[] {
  const t = (deg * Math.PI) / 180;
  return points.map(([x, y, z]) => {
    const xr = x * Math.cos(t) + z * Math.sin(t);
    const zr = -x * Math.sin(t) + z * Math.cos(t);
    const depth = 400 - zr;
    return [(500 * xr) / depth + 320, (500 * y) / depth + 240];
  });
}

describe('planarity', () => {
  it('recovers a known homography exactly', () => {
    const h = [1.1, 0.05, 12, -0.03, 0.95, 7, 0.0004, -0.0002, 1];
    const from: Point2[] = [
      [0, 0],
      [100, 10],
      [90, 120],
      [-20, 80],
      [50, 50],
      [10, 140],
    ];
    const to = from.map((p) => project(h, p));
    const fitted = fitHomography(from, to)!;
    for (const p of from) {
      const [a, b] = project(fitted, p);
      const [c, d] = project(h, p);
      expect(Math.hypot(a - c, b - d)).toBeLessThan(1e-6);
    }
    expect(homographyResidual(from, to, 50)).toBeLessThan(1e-8);
  });

  it('leaves almost no residual on a flat face turned 30°, and a large one on a relief turned 30°', () => {
    const scale = 60;
    const flat = faceRelief(true);
    const head = faceRelief(false);
    const printResidual = trimmedResidual(view(flat, 0), view(flat, 30), scale);
    const headResidual = trimmedResidual(view(head, 0), view(head, 30), scale);
    expect(printResidual).toBeLessThan(0.001);
    expect(headResidual).toBeGreaterThan(0.05);
  });

  it('cannot fit fewer than four points', () => {
    expect(fitHomography([[0, 0]], [[1, 1]])).toBeNull();
    expect(homographyResidual([[0, 0]], [[1, 1]], 1)).toBe(Number.POSITIVE_INFINITY);
  });
});
