/**
 * Perspective rectification of a grey plane: a quadrilateral of the photo (a barcode, a card)
 * mapped onto an upright rectangle through the homography its four corners define, sampled
 * bicubically. A phone photographs a card at an angle, so its rows are neither level nor
 * parallel; a rotation alone cannot straighten them, and small modules need the upscaling too.
 */
import type { GreyPlane } from './raster.js';

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Corners in order: top-left, top-right, bottom-right, bottom-left. */
export type Quad = readonly [Point, Point, Point, Point];

/** Solves the 8x8 system A·x = b by Gaussian elimination with partial pivoting; null if singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/**
 * The homography (row-major 3x3, h33 = 1) that maps the corners of a `width` x `height`
 * rectangle onto `quad`; null for a degenerate quad.
 */
export function rectToQuad(width: number, height: number, quad: Quad): number[] | null {
  const src: Point[] = [
    { x: 0, y: 0 },
    { x: width, y: 0 },
    { x: width, y: height },
    { x: 0, y: height },
  ];
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = src[i]!;
    const { x: u, y: v } = quad[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  const h = solve(a, b);
  return h ? [...h, 1] : null;
}

/** Catmull-Rom weight. */
function cubic(t: number): number {
  const a = Math.abs(t);
  if (a < 1) return 1.5 * a * a * a - 2.5 * a * a + 1;
  if (a < 2) return -0.5 * a * a * a + 2.5 * a * a - 4 * a + 2;
  return 0;
}

/** Catmull-Rom weights of the four pixels around a sample, for each axis (reused: one sample at a time). */
const wx = [0, 0, 0, 0];
const wy = [0, 0, 0, 0];

/**
 * The grey level of `g` at the image point (`x`, `y`) (pixel centres at .5), bicubic. Points
 * outside the image read as white (paper), so a sample past the border adds a quiet zone, not a frame.
 */
export function sampleBicubic(g: GreyPlane, x: number, y: number): number {
  const { data, width: gw, height: gh } = g;
  const sx = x - 0.5;
  const sy = y - 0.5;
  const ix = Math.floor(sx);
  const iy = Math.floor(sy);
  for (let k = 0; k < 4; k++) {
    wx[k] = cubic(sx - ix - (k - 1));
    wy[k] = cubic(sy - iy - (k - 1));
  }
  let v = 0;
  for (let j = 0; j < 4; j++) {
    const py = iy + j - 1;
    let row = 0;
    for (let i = 0; i < 4; i++) {
      const px = ix + i - 1;
      row += wx[i]! * (px < 0 || py < 0 || px >= gw || py >= gh ? 255 : data[py * gw + px]!);
    }
    v += wy[j]! * row;
  }
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/** Samples `quad` of `g` into an upright `width` x `height` plane (outside the image: white). */
export function warpQuad(g: GreyPlane, quad: Quad, width: number, height: number): GreyPlane | null {
  const h = rectToQuad(width, height, quad);
  if (!h) return null;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cx = x + 0.5;
      const cy = y + 0.5;
      const d = h[6]! * cx + h[7]! * cy + h[8]!;
      out[y * width + x] = sampleBicubic(g, (h[0]! * cx + h[1]! * cy + h[2]!) / d, (h[3]! * cx + h[4]! * cy + h[5]!) / d);
    }
  }
  return { data: out, width, height };
}

/** The quad grown about its centre: by `fx` of its width along the rows and `fy` of its height across them. */
export function growQuad(q: Quad, fx: number, fy: number): Quad {
  const [tl, tr, br, bl] = q;
  const lerp = (a: Point, b: Point, t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
  // Along the top and bottom edges first, then across between the widened edges.
  const tl1 = lerp(tr, tl, 1 + fx);
  const tr1 = lerp(tl, tr, 1 + fx);
  const bl1 = lerp(br, bl, 1 + fx);
  const br1 = lerp(bl, br, 1 + fx);
  return [lerp(bl1, tl1, 1 + fy), lerp(br1, tr1, 1 + fy), lerp(tr1, br1, 1 + fy), lerp(tl1, bl1, 1 + fy)];
}

/** Whether `p` lies inside the convex quad `q` (its corners in order, either winding). */
export function insideQuad(q: Quad, p: Point): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i]!;
    const b = q[(i + 1) % 4]!;
    const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/**
 * A copy of `g` with the pixels inside `q` set to the median grey along its edges (the paper
 * round it: a white patch on a grey page would make edges of its own).
 */
export function paperOver(g: GreyPlane, q: Quad): GreyPlane {
  const edge: number[] = [];
  for (let i = 0; i < 4; i++) {
    const a = q[i]!;
    const b = q[(i + 1) % 4]!;
    const n = Math.max(1, Math.ceil(distance(a, b) / 2));
    for (let k = 0; k < n; k++) {
      const x = Math.round(a.x + ((b.x - a.x) * k) / n);
      const y = Math.round(a.y + ((b.y - a.y) * k) / n);
      if (x >= 0 && y >= 0 && x < g.width && y < g.height) edge.push(g.data[y * g.width + x]!);
    }
  }
  edge.sort((u, v) => u - v);
  const value = edge.length ? edge[Math.floor(edge.length / 2)]! : 255;
  const data = Uint8Array.from(g.data);
  const xs = q.map((p) => p.x);
  const ys = q.map((p) => p.y);
  for (let y = Math.max(0, Math.floor(Math.min(...ys))); y <= Math.min(g.height - 1, Math.ceil(Math.max(...ys))); y++)
    for (let x = Math.max(0, Math.floor(Math.min(...xs))); x <= Math.min(g.width - 1, Math.ceil(Math.max(...xs))); x++)
      if (insideQuad(q, { x, y })) data[y * g.width + x] = value;
  return { data, width: g.width, height: g.height };
}

/** Length of the segment a-b. */
export const distance = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);
