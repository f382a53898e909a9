/**
 * The paper under a printed value. A card prints its values over its own background (guilloche,
 * halftone tint, fibres) and the capture renders that background alike everywhere; a value typed
 * over the photo sits on a patch where the old text was smudged or painted out, which takes the
 * card's fine texture with it, and noise a forger adds back is not the card's print. Measured as
 * the fine-scale residual (grey minus its σ 0.8 blur) of the clear paper between and round a
 * word's glyphs, against the clear paper of the rows round it (other words' boxes left out).
 */
import { separableBlur } from '../float-blur.js';
import type { GreyPlane } from '../raster.js';
import type { TextBox } from './label-pairing.js';

/** The fine texture of a word's clear paper against its surroundings'. */
export interface PaperTexture {
  /** Median |residual| of the clear paper inside the word's box (a little grown). */
  readonly inside: number;
  /** The same over the clear paper round it, other words' boxes left out. */
  readonly around: number;
  /** Clear-paper pixels measured inside. */
  readonly samples: number;
}

export const TEXTURE_SETTINGS = {
  /** Ink: darker than the local background (mean over 13 x 13 px) by this many grey levels… */
  inkContrast: 18,
  /** …and every pixel within this many px of it (a glyph's blurred edge is not paper). */
  inkMargin: 2,
  /** The word's box grown by this share of its height: the paper right round the glyphs. */
  insideGrow: 0.15,
  /** The surroundings start this many box heights out… */
  aroundGap: 0.7,
  /** …and reach this many out, across and up and down. */
  aroundReachX: 3,
  aroundReachY: 1.2,
  minInside: 40,
  minAround: 200,
} as const;

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

function gaussKernel(sigma: number): number[] {
  const r = Math.ceil(3 * sigma);
  const k = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const s = k.reduce((a, b) => a + b, 0);
  return k.map((v) => v / s);
}
const FINE = gaussKernel(0.8);
const LOCAL = gaussKernel(4);

/**
 * Measures the paper under and round `box` on the page `g` (the page the OCR read, in its
 * pixels); `others` are the page's other word boxes, whose print is not paper. Null when either
 * side holds too little clear paper to say.
 */
export function paperTexture(g: GreyPlane, box: TextBox, others: readonly TextBox[]): PaperTexture | null {
  const S = TEXTURE_SETTINGS;
  const H = box.h;
  const x0 = Math.max(0, Math.floor(box.x - S.aroundReachX * H));
  const x1 = Math.min(g.width, Math.ceil(box.x + box.w + S.aroundReachX * H));
  const y0 = Math.max(0, Math.floor(box.y - S.aroundReachY * H));
  const y1 = Math.min(g.height, Math.ceil(box.y + box.h + S.aroundReachY * H));
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 16 || h < 16) return null;
  const f = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) f[y * w + x] = g.data[(y + y0) * g.width + x + x0]!;
  const fine = separableBlur(f, w, h, FINE);
  const local = separableBlur(f, w, h, LOCAL);
  const inkNear = new Uint8Array(w * h);
  const m = S.inkMargin;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (f[y * w + x]! >= local[y * w + x]! - S.inkContrast) continue;
      for (let yy = Math.max(0, y - m); yy <= Math.min(h - 1, y + m); yy++) inkNear.fill(1, yy * w + Math.max(0, x - m), yy * w + Math.min(w - 1, x + m) + 1);
    }
  // Where other words' print lies (their boxes grown by 2 px): not paper, whatever the ink test says.
  const otherPrint = new Uint8Array(w * h);
  for (const o of others) {
    if (o === box) continue;
    const ox0 = Math.max(0, Math.floor(o.x - 2) - x0);
    const ox1 = Math.min(w, Math.ceil(o.x + o.w + 2) - x0);
    for (let y = Math.max(0, Math.floor(o.y - 2) - y0); y < Math.min(h, Math.ceil(o.y + o.h + 2) - y0); y++)
      if (ox1 > ox0) otherPrint.fill(1, y * w + ox0, y * w + ox1);
  }
  const within = (x: number, y: number, grow: number): boolean =>
    x + x0 >= box.x - grow && x + x0 < box.x + box.w + grow && y + y0 >= box.y - grow && y + y0 < box.y + box.h + grow;
  const inside: number[] = [];
  const around: number[] = [];
  // The window's outermost 2 px are left out: the clamped blur is not the page's there.
  for (let y = 2; y < h - 2; y++)
    for (let x = 2; x < w - 2; x++) {
      const i = y * w + x;
      if (inkNear[i]) continue;
      const r = Math.abs(f[i]! - fine[i]!);
      if (within(x, y, S.insideGrow * H)) inside.push(r);
      else if (!otherPrint[i] && !within(x, y, S.aroundGap * H)) around.push(r);
    }
  if (inside.length < S.minInside || around.length < S.minAround) return null;
  return { inside: median(inside), around: median(around), samples: inside.length };
}
