/**
 * Planarity of a face between two frames (issue 20, point 5). A print or a screen is a plane:
 * however it is turned, tilted or moved closer, one frame's face landmarks map onto another's by
 * a homography, up to the landmark detector's noise. A real head is not: turning it moves the
 * nose against the cheeks and the far cheek out of view, which no homography explains. The
 * residual of the best homography, in inter-ocular distances, tells the two apart.
 */

/** A 2-D point. */
export type Point2 = readonly [number, number];

/** 3×3 homography, row-major. */
export type Homography = readonly number[];

/** Similarity transform that moves the points' centroid to 0 and their mean distance to √2 (Hartley). */
function normaliser(points: readonly Point2[]): { apply: (p: Point2) => Point2; scale: number; cx: number; cy: number } {
  let cx = 0;
  let cy = 0;
  for (const [x, y] of points) {
    cx += x;
    cy += y;
  }
  cx /= points.length;
  cy /= points.length;
  let d = 0;
  for (const [x, y] of points) d += Math.hypot(x - cx, y - cy);
  d /= points.length;
  const scale = d > 0 ? Math.SQRT2 / d : 1;
  return { apply: ([x, y]) => [(x - cx) * scale, (y - cy) * scale], scale, cx, cy };
}

/** Solves the n×n system `m·x = b` by Gaussian elimination with partial pivoting; null when singular. */
function solve(m: number[][], b: number[]): number[] | null {
  const n = b.length;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (Math.abs(m[p]![c]!) < 1e-12) return null;
    [m[c], m[p]] = [m[p]!, m[c]!];
    [b[c], b[p]] = [b[p]!, b[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k < n; k++) m[r]![k]! -= f * m[c]![k]!;
      b[r]! -= f * b[c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/** Applies a homography to a point. */
export function project(h: Homography, [x, y]: Point2): Point2 {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
}

/**
 * The least-squares homography taking `from[i]` to `to[i]` (at least 4 pairs), with h₃₃ = 1,
 * fitted on Hartley-normalised coordinates; null when the points are degenerate.
 */
export function fitHomography(from: readonly Point2[], to: readonly Point2[]): Homography | null {
  if (from.length < 4 || from.length !== to.length) return null;
  const nf = normaliser(from);
  const nt = normaliser(to);
  const ata = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const atb = new Array<number>(8).fill(0);
  const add = (row: number[], rhs: number) => {
    for (let i = 0; i < 8; i++) {
      atb[i]! += row[i]! * rhs;
      for (let j = 0; j < 8; j++) ata[i]![j]! += row[i]! * row[j]!;
    }
  };
  for (let i = 0; i < from.length; i++) {
    const [x, y] = nf.apply(from[i]!);
    const [u, v] = nt.apply(to[i]!);
    add([x, y, 1, 0, 0, 0, -u * x, -u * y], u);
    add([0, 0, 0, x, y, 1, -v * x, -v * y], v);
  }
  const h = solve(ata, atb);
  if (!h) return null;
  // Undo the normalisations: H = Tto⁻¹ · Hn · Tfrom.
  const hn = [...h, 1];
  const tf = [nf.scale, 0, -nf.cx * nf.scale, 0, nf.scale, -nf.cy * nf.scale, 0, 0, 1];
  const tti = [1 / nt.scale, 0, nt.cx, 0, 1 / nt.scale, nt.cy, 0, 0, 1];
  const mul = (a: readonly number[], b: readonly number[]) =>
    Array.from({ length: 9 }, (_, k) => {
      const r = Math.floor(k / 3);
      const c = k % 3;
      return a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]!;
    });
  return mul(tti, mul(hn, tf));
}

/**
 * Root-mean-square distance between `to` and `from` mapped by their best homography, divided by
 * `scale` (the inter-ocular distance in `to`), so it does not depend on the face's size in the
 * frame. Infinity when no homography could be fitted.
 */
export function homographyResidual(from: readonly Point2[], to: readonly Point2[], scale: number): number {
  const h = fitHomography(from, to);
  if (!h || scale <= 0) return Number.POSITIVE_INFINITY;
  let sum = 0;
  for (let i = 0; i < from.length; i++) {
    const [x, y] = project(h, from[i]!);
    sum += (x - to[i]![0]) ** 2 + (y - to[i]![1]) ** 2;
  }
  return Math.sqrt(sum / from.length) / scale;
}

/**
 * {@link homographyResidual} after dropping the `trim` share of worst-fitting landmarks and
 * fitting again: a landmark detector misplaces a few points on any face, a real head turn moves
 * most of them against the plane.
 */
export function trimmedResidual(from: readonly Point2[], to: readonly Point2[], scale: number, trim = 0.2): number {
  const h = fitHomography(from, to);
  if (!h || scale <= 0) return Number.POSITIVE_INFINITY;
  const errors = from.map((p, i) => {
    const [x, y] = project(h, p);
    return { i, e: (x - to[i]![0]) ** 2 + (y - to[i]![1]) ** 2 };
  });
  errors.sort((a, b) => a.e - b.e);
  const keep = errors.slice(0, Math.max(4, Math.round(errors.length * (1 - trim)))).map((x) => x.i);
  return homographyResidual(
    keep.map((i) => from[i]!),
    keep.map((i) => to[i]!),
    scale,
  );
}
