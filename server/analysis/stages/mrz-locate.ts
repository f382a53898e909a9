/**
 * Finds the MRZ lines of a photographed page as text lines, not as image rows: under a phone's
 * perspective the page's lines are neither level nor parallel, and a row-coverage search on
 * the deskewed photo missed most MRZs of the development half (issue 20). Each MRZ line is a
 * long, even run of dense edge blocks; two or three of them, parallel, alike in length and
 * stacked close, are the zone. Their common rectangle is rectified upright for the OCR.
 */
import type { GreyPlane } from '../raster.js';
import { growQuad, warpQuad, type Point } from '../warp.js';
import { denseRegions, type DenseRegion } from './barcode-locate.js';

/** A rectified MRZ: the upright plane and the height of one of its text lines there. */
export interface LocatedMrz {
  readonly plane: GreyPlane;
  readonly lineHeight: number;
  readonly lines: number;
}

/** Largest angle between the MRZ lines (radians): they are parallel on the page. */
const MAX_TURN = (4 * Math.PI) / 180;

function linesOf(g: GreyPlane): DenseRegion[] {
  // 6 px blocks and a low density share: OCR-B strokes on a 720-1080 px upload are thin.
  return denseRegions(g, 6, 0.2).filter((r) => r.long >= 8 * r.short && r.long >= 0.2 * Math.max(g.width, g.height) && r.fill >= 0.45);
}

/** The groups of 2-3 parallel, equally long lines stacked within a few line heights, lowest first. */
function groups(lines: DenseRegion[]): DenseRegion[][] {
  const out: DenseRegion[][] = [];
  for (const base of lines) {
    const c = Math.cos(base.theta);
    const s = Math.sin(base.theta);
    const across = (r: DenseRegion): number => -(r.cx - base.cx) * s + (r.cy - base.cy) * c;
    const along = (r: DenseRegion): number => (r.cx - base.cx) * c + (r.cy - base.cy) * s;
    const mates = lines.filter(
      (r) =>
        Math.abs(r.theta - base.theta) <= MAX_TURN &&
        Math.abs(r.long - base.long) <= 0.2 * base.long &&
        Math.abs(along(r)) <= 0.15 * base.long &&
        Math.abs(across(r)) <= 4.5 * base.short,
    );
    if (mates.length < 2 || mates.length > 3) continue;
    const key = mates.map((m) => lines.indexOf(m)).sort((a, b) => a - b);
    if (out.some((o) => o.map((m) => lines.indexOf(m)).join() === key.join())) continue;
    out.push(mates.sort((a, b) => across(a) - across(b)));
  }
  // The MRZ is at the bottom of the page: lowest group first (image y of its centre).
  return out.sort((a, b) => b.reduce((t, r) => t + r.cy, 0) / b.length - a.reduce((t, r) => t + r.cy, 0) / a.length);
}

/** The rectangle round a group of lines, in their common orientation. */
function groupQuad(group: DenseRegion[]): readonly [Point, Point, Point, Point] {
  const theta = group.reduce((t, r) => t + r.theta, 0) / group.length;
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  const pts = group.flatMap((r) => r.quad);
  const ox = pts[0]!.x;
  const oy = pts[0]!.y;
  let u0 = Infinity;
  let u1 = -Infinity;
  let v0 = Infinity;
  let v1 = -Infinity;
  for (const p of pts) {
    const u = (p.x - ox) * c + (p.y - oy) * s;
    const v = -(p.x - ox) * s + (p.y - oy) * c;
    u0 = Math.min(u0, u);
    u1 = Math.max(u1, u);
    v0 = Math.min(v0, v);
    v1 = Math.max(v1, v);
  }
  const at = (u: number, v: number): Point => ({ x: ox + u * c - v * s, y: oy + u * s + v * c });
  return [at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)];
}

/**
 * Candidate MRZs of a page, most likely first (the lowest line group), each rectified at the
 * source's resolution with a margin of about half a line.
 */
export function locateMrz(g: GreyPlane, max = 2): LocatedMrz[] {
  const out: LocatedMrz[] = [];
  for (const group of groups(linesOf(g)).slice(0, max)) {
    const quad = groupQuad(group);
    const long = Math.hypot(quad[1].x - quad[0].x, quad[1].y - quad[0].y);
    const short = Math.hypot(quad[3].x - quad[0].x, quad[3].y - quad[0].y);
    const lineHeight = group.reduce((t, r) => t + r.short, 0) / group.length;
    const grown = growQuad(quad, 0.03, lineHeight / Math.max(1, short));
    const width = Math.round(long * 1.06);
    const height = Math.round(short + 2 * lineHeight);
    const plane = warpQuad(g, grown, width, height);
    if (plane) out.push({ plane, lineHeight, lines: group.length });
  }
  return out;
}
