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
  /** The zone's corners on the page it was cut from (the MRZ's clear band, margin included). */
  readonly quad: readonly [Point, Point, Point, Point];
}

/** Largest angle between the MRZ lines (radians): they are parallel on the page. */
const MAX_TURN = (4 * Math.PI) / 180;

/** Two pieces of one text line as one region: the rectangle round both, in the first's orientation. */
function joined(a: DenseRegion, b: DenseRegion): DenseRegion {
  const c = Math.cos(a.theta);
  const s = Math.sin(a.theta);
  let u0 = Infinity;
  let u1 = -Infinity;
  let v0 = Infinity;
  let v1 = -Infinity;
  for (const p of [...a.quad, ...b.quad]) {
    const u = (p.x - a.cx) * c + (p.y - a.cy) * s;
    const v = -(p.x - a.cx) * s + (p.y - a.cy) * c;
    u0 = Math.min(u0, u);
    u1 = Math.max(u1, u);
    v0 = Math.min(v0, v);
    v1 = Math.max(v1, v);
  }
  const at = (u: number, v: number): Point => ({ x: a.cx + u * c - v * s, y: a.cy + u * s + v * c });
  const long = u1 - u0;
  const short = v1 - v0;
  return {
    cx: a.cx + ((u0 + u1) / 2) * c - ((v0 + v1) / 2) * s,
    cy: a.cy + ((u0 + u1) / 2) * s + ((v0 + v1) / 2) * c,
    theta: a.theta,
    long,
    short,
    fill: (a.fill * a.long * a.short + b.fill * b.long * b.short) / Math.max(1, long * short),
    quad: [at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)],
  };
}

/**
 * Joins the pieces of a text line broken by a finger, a hologram or a highlight over it: two
 * elongated regions in line (same direction, same height, centres on one axis) with a gap of
 * at most a few line heights. A development passport's second MRZ line, cut in two by a
 * fingertip, was otherwise no line at all.
 */
export function joinBrokenLines(regions: readonly DenseRegion[]): DenseRegion[] {
  const out = [...regions];
  for (let merged = true; merged;) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length && !merged; j++) {
        const a = out[i]!.long >= out[j]!.long ? out[i]! : out[j]!;
        const b = a === out[i] ? out[j]! : out[i]!;
        if (a.long < 3 * a.short || b.long < 2 * b.short) continue;
        if (Math.abs(Math.sin(a.theta - b.theta)) > Math.sin(MAX_TURN)) continue;
        if (b.short > 1.6 * a.short || a.short > 1.6 * b.short) continue;
        const c = Math.cos(a.theta);
        const s = Math.sin(a.theta);
        const across = Math.abs(-(b.cx - a.cx) * s + (b.cy - a.cy) * c);
        const gap = Math.abs((b.cx - a.cx) * c + (b.cy - a.cy) * s) - (a.long + b.long) / 2;
        if (across > 0.4 * a.short || gap > 3 * a.short) continue;
        out.splice(j, 1);
        out.splice(i, 1, joined(a, b));
        merged = true;
      }
    }
  }
  return out;
}

function regionsOf(g: GreyPlane): DenseRegion[] {
  // 6 px blocks and a low density share: OCR-B strokes on a 720-1080 px upload are thin.
  return joinBrokenLines(denseRegions(g, 6, 0.2));
}

function linesOf(regions: readonly DenseRegion[], g: GreyPlane): DenseRegion[] {
  return regions.filter((r) => r.long >= 8 * r.short && r.long >= 0.2 * Math.max(g.width, g.height) && r.fill >= 0.45);
}

/**
 * Regions as long as an MRZ and two to three lines tall that are no line: an MRZ whose lines end
 * close to the page's edge joins that edge's blocks, and the lines and the edge make one region
 * (development passports with the MRZ set wide: 10 of 24 found no zone). Lowest first.
 */
function mergedZones(regions: readonly DenseRegion[], lines: readonly DenseRegion[], g: GreyPlane): DenseRegion[] {
  return regions
    .filter((r) => !lines.includes(r) && r.long >= 0.4 * Math.max(g.width, g.height) && r.short >= r.long / 12 && r.short <= r.long / 3.5)
    .filter((r) => Math.abs(Math.sin(r.theta)) <= Math.sin((15 * Math.PI) / 180))
    .sort((a, b) => b.cy - a.cy);
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

/** Rectifies a zone round a line group, with a margin of about half a line. */
function zoneOf(g: GreyPlane, quad: readonly [Point, Point, Point, Point], lineHeight: number, lines: number): LocatedMrz | null {
  const long = Math.hypot(quad[1].x - quad[0].x, quad[1].y - quad[0].y);
  const short = Math.hypot(quad[3].x - quad[0].x, quad[3].y - quad[0].y);
  const grown = growQuad(quad, 0.03, lineHeight / Math.max(1, short));
  const plane = warpQuad(g, grown, Math.round(long * 1.06), Math.round(short + 2 * lineHeight));
  return plane ? { plane, lineHeight, lines, quad: grown } : null;
}

/** The line's rectangle stretched by `pitches` line pitches across it (negative: upwards). */
function extended(r: DenseRegion, pitches: number): readonly [Point, Point, Point, Point] {
  const d = pitches * LINE_PITCH * r.short;
  const nx = -Math.sin(r.theta) * d;
  const ny = Math.cos(r.theta) * d;
  const [a, b, c, e] = r.quad;
  return d > 0 ? [a, b, { x: c.x + nx, y: c.y + ny }, { x: e.x + nx, y: e.y + ny }] : [{ x: a.x + nx, y: a.y + ny }, { x: b.x + nx, y: b.y + ny }, c, e];
}

/** Distance between MRZ lines in line-region heights (OCR-B at ICAO spacing, measured ~2). */
const LINE_PITCH = 2.2;

/**
 * Candidate MRZs of a page, most likely first (the lowest line group), each rectified at the
 * source's resolution with a margin of about half a line. After the groups come lone lines as
 * long as an MRZ's, each with room for the line below or above it: a finger or a highlight
 * joined to the other line leaves that one no line shape (two development passports), while
 * the OCR still reads it. The lines are found on `g` and the zones cut from `source` (the same
 * page, unsmoothed, when `g` was smoothed to find them).
 */
export function locateMrz(g: GreyPlane, max = 2, source: GreyPlane = g): LocatedMrz[] {
  const regions = regionsOf(g);
  const lines = linesOf(regions, g);
  const found = groups(lines);
  const out: LocatedMrz[] = [];
  for (const group of found.slice(0, max)) {
    const lineHeight = group.reduce((t, r) => t + r.short, 0) / group.length;
    const zone = zoneOf(source, groupQuad(group), lineHeight, group.length);
    if (zone) out.push(zone);
  }
  const grouped = new Set(found.flat());
  const lone = lines.filter((r) => !grouped.has(r) && r.long >= 0.4 * Math.max(g.width, g.height)).sort((a, b) => b.cy - a.cy);
  for (const r of lone.slice(0, 1)) {
    for (const pitches of [1, -1]) {
      const zone = zoneOf(source, extended(r, pitches), r.short, 2);
      if (zone) out.push(zone);
    }
  }
  return out;
}

/**
 * The lowest region as long as an MRZ and two to three lines tall that is no text line
 * ({@link mergedZones}), rectified as a two-line zone: a fallback after {@link locateMrz}, whose
 * zones are tried first (a licence front has such regions too, and the search runs on every page).
 */
export function locateMergedMrz(g: GreyPlane, source: GreyPlane = g): LocatedMrz[] {
  const regions = regionsOf(g);
  const r = mergedZones(regions, linesOf(regions, g), g)[0];
  // Two lines at ICAO spacing and the margins the region took in: ~4.5 line heights.
  const zone = r ? zoneOf(source, r.quad, r.short / 4.5, 2) : null;
  return zone ? [zone] : [];
}
