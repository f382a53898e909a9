/**
 * A screen replay's own border (issue 20: replays that leave no moiré). A picture shown on a
 * screen and photographed again often brings the edge of the displayed picture into the frame:
 * past it the screen is unlit (or its bezel is), a flat black with no texture, cut off from the
 * picture by a straight edge. When the second camera is turned a little against the screen,
 * that edge crosses the corners of the frame as thin black wedges. A photo of a card has no such
 * thing: its dark corners come from vignetting or a dim scene (no sharp straight edge, some
 * light in them) or from the desk round the card (textured, lit).
 *
 * For each corner of the frame, the unlit pixels along the two frame edges give the wedge's two
 * legs; the wedge counts when its inner boundary is a straight line (checked along its long
 * leg), its inside is flat and unlit, and the picture just past the boundary is clearly lit. The
 * frame shows a displayed picture's border when two corners' wedges lie on the sides of one
 * rectangle: their boundaries parallel or perpendicular (a rectangle turned as a whole).
 */
import type { Raster } from '../raster.js';

export const SCREEN_BORDER_SETTINGS = {
  /** A pixel is unlit below this luma (a screen's black plus sensor noise and JPEG). */
  dark: 24,
  /** The long leg of a wedge must reach this many pixels (enough to judge its straightness). */
  minLongLeg: 40,
  /** And the short leg this many (a line of a single pixel row is no wedge). */
  minShortLeg: 2,
  /** The boundary's RMS distance from its fitted line, pixels, at most. */
  maxResidual: 1,
  /** Inside the wedge (2+ px in from the boundary): mean luma and its standard deviation, at most. */
  maxInsideMean: 10,
  maxInsideSpread: 6,
  /** Just past the boundary (3-8 px out), the median luma must exceed the inside's mean by this. */
  minContrast: 15,
  /** Two corners' boundaries are sides of one rectangle when their angles agree (mod 90°) within this, degrees. */
  maxAngleGap: 1,
} as const;

/** One corner's wedge: its legs along the horizontal and vertical frame edges, and its boundary's angle. */
export interface BorderWedge {
  readonly corner: 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';
  readonly across: number;
  readonly down: number;
  /** Boundary direction, degrees in [0, 90): a side of the displayed rectangle, taken mod 90°. */
  readonly angle: number;
  readonly residual: number;
  readonly insideMean: number;
  readonly insideSpread: number;
  readonly contrast: number;
  /** Whether every test above held. */
  readonly counts: boolean;
}

export interface ScreenBorder {
  readonly wedges: readonly BorderWedge[];
  /** Two counting wedges on the sides of one rectangle. */
  readonly screen: boolean;
}

const CORNERS = [
  ['top-left', 0, 0],
  ['top-right', 1, 0],
  ['bottom-left', 0, 1],
  ['bottom-right', 1, 1],
] as const;

/** Finds the wedges of a displayed picture's border in the corners of a frame (module comment). */
export function detectScreenBorder(r: Raster): ScreenBorder {
  if (r.channels !== 3) return { wedges: [], screen: false };
  const { width: w, height: h, data: d } = r;
  const luma = (x: number, y: number): number => {
    const i = (y * w + x) * 3;
    return 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
  };
  const S = SCREEN_BORDER_SETTINGS;
  const wedges: BorderWedge[] = [];
  for (const [corner, right, bottom] of CORNERS) {
    // Frame coordinates from a corner: t along the horizontal edge, u along the vertical one.
    const px = (t: number, u: number): number => luma(right ? w - 1 - t : t, bottom ? h - 1 - u : u);
    let across = 0;
    while (across < w && px(across, 0) < S.dark) across++;
    let down = 0;
    while (down < h && px(0, down) < S.dark) down++;
    if (Math.min(across, down) < S.minShortLeg || Math.max(across, down) < S.minLongLeg) continue;
    // Walk the long leg; at each step, how deep the unlit run reaches along the short axis.
    const alongAcross = across >= down;
    const long = alongAcross ? across : down;
    const short = alongAcross ? down : across;
    const limit = Math.min(alongAcross ? h : w, short * 2 + 16);
    const at = (s: number, q: number): number => (alongAcross ? px(s, q) : px(q, s));
    const depth: number[] = [];
    for (let s = 0; s < long; s++) {
      let q = 0;
      while (q < limit && at(s, q) < S.dark) q++;
      depth.push(q);
    }
    // Least-squares line depth = a + b·s, and the boundary's distance from it.
    const n = depth.length;
    let ms = 0;
    let mq = 0;
    for (let s = 0; s < n; s++) {
      ms += s;
      mq += depth[s]!;
    }
    ms /= n;
    mq /= n;
    let sxy = 0;
    let sxx = 0;
    for (let s = 0; s < n; s++) {
      sxy += (s - ms) * (depth[s]! - mq);
      sxx += (s - ms) ** 2;
    }
    const slope = sxx > 0 ? sxy / sxx : 0;
    const line = (s: number): number => mq + slope * (s - ms);
    let sq = 0;
    for (let s = 0; s < n; s++) sq += (depth[s]! - line(s)) ** 2;
    const residual = Math.sqrt(sq / n) / Math.sqrt(1 + slope * slope);
    // Inside (2+ px in from the line) and just outside it (3-8 px out).
    let inSum = 0;
    let inSq = 0;
    let inCount = 0;
    const outside: number[] = [];
    for (let s = 0; s < n; s++) {
      const edge = line(s);
      for (let q = 0; q < edge - 2; q++) {
        const v = at(s, q);
        inSum += v;
        inSq += v * v;
        inCount++;
      }
      for (let q = Math.max(0, Math.ceil(edge + 3)); q <= edge + 8 && q < limit + 8 && q < (alongAcross ? h : w); q++) outside.push(at(s, q));
    }
    const insideMean = inCount ? inSum / inCount : 255;
    const insideSpread = inCount ? Math.sqrt(Math.max(0, inSq / inCount - insideMean ** 2)) : 255;
    outside.sort((a, b) => a - b);
    const contrast = outside.length ? outside[outside.length >> 1]! - insideMean : 0;
    // The boundary's direction in the frame, mod 90°: a slope along the horizontal edge is a
    // near-horizontal side; along the vertical edge, a near-vertical one (the same mod 90°).
    const angle = ((((Math.atan(Math.abs(slope)) * 180) / Math.PI) % 90) + 90) % 90;
    const counts = residual <= S.maxResidual && insideMean <= S.maxInsideMean && insideSpread <= S.maxInsideSpread && contrast >= S.minContrast && inCount > 0;
    wedges.push({
      corner,
      across,
      down,
      angle: Math.round(angle * 100) / 100,
      residual: Math.round(residual * 100) / 100,
      insideMean: Math.round(insideMean * 10) / 10,
      insideSpread: Math.round(insideSpread * 10) / 10,
      contrast: Math.round(contrast),
      counts,
    });
  }
  const counting = wedges.filter((x) => x.counts);
  let screen = false;
  for (let i = 0; i < counting.length; i++)
    for (let j = i + 1; j < counting.length; j++) if (Math.abs(counting[i]!.angle - counting[j]!.angle) <= S.maxAngleGap) screen = true;
  return { wedges, screen };
}
