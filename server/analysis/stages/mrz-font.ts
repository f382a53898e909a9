/**
 * OCR-B glyph templates at a zone's scale, and their normalised correlation with the zone's
 * pixels (issue 20). An MRZ is printed in one font ICAO 9303 prescribes, at a fixed pitch, so
 * what each character must look like is known before anything is read: the templates are drawn
 * from the font's outlines (ocrb-glyphs.ts, no font needed at run time), at the pitch found on
 * the zone, at sub-pixel phases, blurred as much as the capture is.
 */
import sharp from 'sharp';
import { OCRB_ADVANCE, OCRB_GLYPHS } from './ocrb-glyphs.js';
import type { GreyPlane } from '../raster.js';

/** One glyph drawn at one scale, phase and blur: zero-mean, unit-norm, `w` × `h`. */
export interface Template {
  readonly w: number;
  readonly h: number;
  readonly v: Float64Array;
}

/** Every character's templates at one scale and blur (one per sub-pixel phase). */
export type TemplateSet = ReadonlyMap<string, readonly Template[]>;

/**
 * Rows of a template in font units (y down, baseline 0): the capitals and digits span about
 * -775 to 15; a fifth of that above and below lets the correlation see the glyph's edges.
 */
const TOP = -935;
const BOTTOM = 175;
/** Horizontal phases drawn, in quarters of a pixel; vertical ones in halves. */
const PHASES_X = [0, 0.25, 0.5, 0.75];
const PHASES_Y = [0, 0.5];

/**
 * Every character of `chars` drawn at `pitch` pixels per character (one advance), once per
 * sub-pixel phase, as grey rasters (ink dark on white), not yet blurred. One SVG for all: a row
 * per phase, a slot per character.
 */
export async function drawGlyphs(chars: string, pitch: number): Promise<Map<string, { w: number; h: number; v: Float64Array }[]>> {
  const s = pitch / OCRB_ADVANCE;
  const w = Math.max(3, Math.round(pitch));
  const h = Math.max(3, Math.round((BOTTOM - TOP) * s));
  const slot = w + 4;
  const rowH = h + 4;
  const phases = PHASES_Y.flatMap((py) => PHASES_X.map((px) => [px, py] as const));
  const paths = phases
    .flatMap(([px, py], r) =>
      [...chars].map((c, k) => `<path transform="translate(${k * slot + px} ${r * rowH + py - TOP * s}) scale(${s})" d="${OCRB_GLYPHS[c] ?? ''}"/>`),
    )
    .join('');
  const width = slot * chars.length;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${rowH * phases.length}"><rect width="100%" height="100%" fill="#fff"/><g fill="#000">${paths}</g></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const out = new Map<string, { w: number; h: number; v: Float64Array }[]>();
  phases.forEach((_, r) =>
    [...chars].forEach((c, k) => {
      const v = new Float64Array(w * h);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) v[y * w + x] = data[(r * rowH + y) * info.width + k * slot + x]!;
      out.set(c, [...(out.get(c) ?? []), { w, h, v }]);
    }),
  );
  return out;
}

/** The drawn glyphs (those of `only`, when given) blurred by a Gaussian of `sigma` pixels (the capture's blur) and normalised. */
export function templateSet(
  drawn: ReadonlyMap<string, readonly { w: number; h: number; v: Float64Array }[]>,
  sigma: number,
  only?: ReadonlySet<string>,
): TemplateSet {
  const out = new Map<string, Template[]>();
  for (const [c, list] of drawn)
    if (!only || only.has(c))
      out.set(
        c,
        list.flatMap((t) => {
          const v = normalised(blurred(t.v, t.w, t.h, sigma));
          return v ? [{ w: t.w, h: t.h, v }] : [];
        }),
      );
  return out;
}

function blurred(v: Float64Array, w: number, h: number, sigma: number): Float64Array {
  if (sigma <= 0) return v;
  const r = Math.ceil(sigma * 3);
  const k = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const sum = k.reduce((a, b) => a + b, 0);
  const pass = (src: Float64Array, horizontal: boolean): Float64Array => {
    const dst = new Float64Array(src.length);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let acc = 0;
        for (let i = -r; i <= r; i++) {
          // Beyond the drawn window is paper.
          const xx = horizontal ? x + i : x;
          const yy = horizontal ? y : y + i;
          acc += k[i + r]! * (xx < 0 || yy < 0 || xx >= w || yy >= h ? 255 : src[yy * w + xx]!);
        }
        dst[y * w + x] = acc / sum;
      }
    return dst;
  };
  return pass(pass(v, true), false);
}

function normalised(v: Float64Array): Float64Array | null {
  let mean = 0;
  for (const x of v) mean += x;
  mean /= v.length;
  let norm = 0;
  const out = new Float64Array(v.length);
  for (let k = 0; k < v.length; k++) {
    out[k] = v[k]! - mean;
    norm += out[k]! * out[k]!;
  }
  if (norm <= 1e-9) return null;
  const s = 1 / Math.sqrt(norm);
  for (let k = 0; k < v.length; k++) out[k] = out[k]! * s;
  return out;
}

/** A zone's pixels with running sums, for the correlation of a template at any place in O(template). */
export class CorrelationPlane {
  private readonly sum: Float64Array;
  private readonly sq: Float64Array;
  constructor(readonly g: GreyPlane) {
    const W = g.width + 1;
    this.sum = new Float64Array(W * (g.height + 1));
    this.sq = new Float64Array(W * (g.height + 1));
    for (let y = 0; y < g.height; y++) {
      let row = 0;
      let rowSq = 0;
      for (let x = 0; x < g.width; x++) {
        const v = g.data[y * g.width + x]!;
        row += v;
        rowSq += v * v;
        this.sum[(y + 1) * W + x + 1] = this.sum[y * W + x + 1]! + row;
        this.sq[(y + 1) * W + x + 1] = this.sq[y * W + x + 1]! + rowSq;
      }
    }
  }

  /** Normalised correlation of `t` with the window whose top-left is (`x`, `y`); -1 off the plane or on a flat window. */
  at(t: Template, x: number, y: number): number {
    const { g } = this;
    if (x < 0 || y < 0 || x + t.w > g.width || y + t.h > g.height) return -1;
    const W = g.width + 1;
    const a = y * W + x;
    const b = (y + t.h) * W + x;
    const { sum, sq } = this;
    const n = t.w * t.h;
    const s = sum[b + t.w]! - sum[a + t.w]! - sum[b]! + sum[a]!;
    const variance = sq[b + t.w]! - sq[a + t.w]! - sq[b]! + sq[a]! - (s * s) / n;
    if (variance <= 1e-6) return -1;
    // The template is zero-mean: its dot product with the raw window is that with the centred one.
    let dot = 0;
    const data = g.data;
    const tv = t.v;
    for (let yy = 0, k = 0; yy < t.h; yy++) {
      const row = (y + yy) * g.width + x;
      for (let xx = 0; xx < t.w; xx++, k++) dot += tv[k]! * data[row + xx]!;
    }
    return dot / Math.sqrt(variance);
  }

  /**
   * Best correlation of any of `templates` (one glyph's phases) centred within `reach` pixels
   * (`reachY` vertically) of (`cx`, `cy`), with where it was found.
   */
  best(templates: readonly Template[], cx: number, cy: number, reach: number, reachY: number): { score: number; x: number; y: number } {
    let best = { score: -1, x: cx, y: cy };
    for (const t of templates) {
      const x0 = Math.round(cx - t.w / 2);
      const y0 = Math.round(cy - t.h / 2);
      for (let dy = -reachY; dy <= reachY; dy++)
        for (let dx = -reach; dx <= reach; dx++) {
          const s = this.at(t, x0 + dx, y0 + dy);
          if (s > best.score) best = { score: s, x: cx + dx, y: cy + dy };
        }
    }
    return best;
  }
}
