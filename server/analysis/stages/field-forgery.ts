/**
 * A printed value re-typed over the photo of a document: its glyphs measured against the page's
 * other printed values, from the OCR's own word boxes (no OCR of its own). A card prints its
 * values in one typeface and weight, and the capture blurs, tilts and scales them all alike; a
 * value typed in afterwards keeps its own stroke weight and size, and lies straight in the photo
 * while the card's rows are tilted with it. Measured here on the (deskewed) page the OCR read.
 */
import type { GreyPlane } from '../raster.js';
import { paperTexture } from './field-texture.js';
import type { BoxRow, TextBox } from './label-pairing.js';

/** What is measured on one word's glyphs (page pixels; `tilt` in degrees). */
export interface GlyphFeatures {
  readonly text: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  /** Height of the ink's core rows (ascender to baseline of most glyphs). */
  readonly inkHeight: number;
  /** Median stroke width over the ink height: the development fronts' bold values 0.17-0.34, regular faces re-typed 0.07-0.14. */
  readonly stroke: number;
  /** Slope of the glyphs' tops and bottoms, degrees (positive: down to the right). */
  readonly tilt: number;
  /** Share of the box darker than the ink threshold: over half is light print on a dark band. */
  readonly inkShare: number;
}

function quantile(v: number[], q: number): number {
  if (v.length === 0) return NaN;
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))]!;
}

/** Otsu's threshold of the pixels in a rectangle. */
function otsu(g: GreyPlane, x0: number, y0: number, x1: number, y1: number): number {
  const hist = new Float64Array(256);
  let n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      hist[g.data[y * g.width + x]!]!++;
      n++;
    }
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let wB = 0;
  let sB = 0;
  let best = 0;
  let t = 128;
  for (let i = 0; i < 256; i++) {
    wB += hist[i]!;
    if (wB === 0 || wB === n) continue;
    sB += i * hist[i]!;
    const mB = sB / wB;
    const mF = (sum - sB) / (n - wB);
    const between = wB * (n - wB) * (mB - mF) ** 2;
    if (between > best) [best, t] = [between, i];
  }
  return t;
}

/** Theil-Sen slope of points (median of pairwise slopes over pairs at least `gap` apart in x). */
function theilSen(xs: number[], ys: number[], gap: number): number {
  const slopes: number[] = [];
  const step = Math.max(1, Math.floor(xs.length / 60));
  for (let i = 0; i < xs.length; i += step)
    for (let j = i + 1; j < xs.length; j += step) if (xs[j]! - xs[i]! >= gap) slopes.push((ys[j]! - ys[i]!) / (xs[j]! - xs[i]!));
  return slopes.length ? quantile(slopes, 0.5) : NaN;
}

/** Measures one word's glyphs on the page it was read on; null when it holds too little ink. */
export function glyphFeatures(g: GreyPlane, box: TextBox): GlyphFeatures | null {
  const x0 = Math.max(1, Math.floor(box.x) - 1);
  const y0 = Math.max(1, Math.floor(box.y) - 1);
  const x1 = Math.min(g.width - 1, Math.ceil(box.x + box.w) + 1);
  const y1 = Math.min(g.height - 1, Math.ceil(box.y + box.h) + 1);
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 12 || h < 8) return null;
  const t = otsu(g, x0, y0, x1, y1);
  const at = (x: number, y: number): number => g.data[y * g.width + x]!;
  const ink = (x: number, y: number): boolean => at(x, y) <= t;
  const dark: number[] = [];
  const light: number[] = [];
  const rowInk = new Array<number>(h).fill(0);
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const v = at(x, y);
      if (v <= t) {
        dark.push(v);
        rowInk[y - y0]!++;
      } else light.push(v);
    }
  if (dark.length < 20 || light.length < 20) return null;
  const inkLevel = quantile(dark, 0.1);
  const paper = quantile(light, 0.6);
  if (paper <= inkLevel + 8) return null;
  // Core rows: the band round the fullest row whose rows hold a fifth of its ink (punctuation,
  // noise and a line of other print inside the box left out).
  const peakAt = rowInk.indexOf(Math.max(...rowInk));
  let top = peakAt;
  let bottom = peakAt;
  while (top > 0 && rowInk[top - 1]! >= rowInk[peakAt]! * 0.2) top--;
  while (bottom < h - 1 && rowInk[bottom + 1]! >= rowInk[peakAt]! * 0.2) bottom++;
  const inkHeight = bottom - top + 1;
  // Stroke width: the median horizontal ink run (vertical strokes dominate digits and capitals),
  // each run's width its summed darkness, the grey edge pixels included (sub-pixel at small print).
  const darkness = (x: number, y: number): number => Math.min(1, Math.max(0, (paper - at(x, y)) / (paper - inkLevel)));
  const runs: number[] = [];
  for (let y = y0; y < y1; y++) {
    let x = x0;
    while (x < x1) {
      if (!ink(x, y)) {
        x++;
        continue;
      }
      let width = darkness(x - 1, y);
      while (x < x1 && ink(x, y)) width += darkness(x++, y);
      runs.push(width + darkness(Math.min(g.width - 1, x), y));
    }
  }
  const stroke = quantile(runs, 0.5);
  // Tilt: per ink column, its top and bottom; the slope of both by Theil-Sen.
  const xs: number[] = [];
  const tops: number[] = [];
  const bottoms: number[] = [];
  for (let x = x0; x < x1; x++) {
    let first = -1;
    let last = -1;
    for (let y = y0 + top; y <= y0 + bottom; y++)
      if (ink(x, y)) {
        if (first < 0) first = y;
        last = y;
      }
    if (first >= 0 && last - first >= inkHeight * 0.5) {
      xs.push(x);
      tops.push(first);
      bottoms.push(last);
    }
  }
  const gap = w * 0.3;
  const slope = (theilSen(xs, tops, gap) + theilSen(xs, bottoms, gap)) / 2;
  return {
    text: box.text,
    x: box.x,
    y: box.y,
    w: box.w,
    h: box.h,
    inkHeight,
    stroke: stroke / Math.max(1, inkHeight),
    tilt: (Math.atan(slope) * 180) / Math.PI,
    inkShare: dark.length / (w * h),
  };
}

/**
 * Words worth measuring: printed values of four or more characters holding two digits or three
 * capitals. An MRZ is left out (OCR-B is meant to differ from the page's print): every word from
 * a row's height above the first row with a filler '<' down, pieces of its lines without one too.
 */
export function valueWords(rows: readonly BoxRow[]): TextBox[] {
  const mrzRows = rows.filter((r) => r.boxes.some((b) => b.text.includes('<')));
  const mrzTop = Math.min(...mrzRows.flatMap((r) => r.boxes.map((b) => b.y - b.h)));
  return rows.flatMap((r) => r.boxes).filter((b) => b.text.length >= 4 && /[0-9]{2}|[A-Z]{3}/.test(b.text) && b.y + b.h / 2 < mrzTop);
}

export interface FieldForgery {
  readonly suspicious: boolean;
  /**
   * Numbers of a lighter weight than the page's words (`stroke`: their share of its median), and
   * other lighter words with a cue, with the cues beside each.
   */
  readonly words: readonly { readonly text: string; readonly cues: readonly string[]; readonly stroke: number; readonly tilt: number }[];
}

export const FIELD_THRESHOLDS = {
  /** Reference words: read with this confidence at least. */
  minRefConfidence: 60,
  minRefWords: 3,
  /** A value's stroke / ink height under this share of the page's median: another weight. */
  strokeShare: 0.6,
  /** Degrees off the page's median tilt of long words. */
  tilt: 2,
  /** Ink height this many times the median of the page's other numbers. */
  height: 1.6,
  /**
   * The paper under a lighter word keeps this share of the fine texture of the paper round it at
   * most: smudged or painted out (field-texture.ts). Development half: re-typed values 0.29-0.74,
   * the genuine lighter words 1.01-2.4.
   */
  paperShare: 0.8,
  /** …where the paper round it has this much texture to lose (grey levels of fine residual). */
  minPaperTexture: 1.2,
} as const;

function median(v: number[]): number {
  return quantile(v, 0.5);
}

const digits = (t: string): number => t.replace(/[^0-9]/g, '').length;

/**
 * Printed numbers (dates, licence and document numbers: what a forger changes) whose glyphs
 * disagree with the page's other printed words: a lighter stroke weight, and the word tilted
 * against the page's rows or much taller than the page's other numbers; or any lighter word
 * whose paper lost the card's fine texture (a patch: field-texture.ts). Paleness is not a cue of
 * its own: a thin stroke blurred by the capture never reaches the ink's full darkness.
 */
export function detectRetypedFields(g: GreyPlane, rows: readonly BoxRow[]): FieldForgery {
  const T = FIELD_THRESHOLDS;
  const measured = valueWords(rows)
    .map((b) => ({ b, f: glyphFeatures(g, b) }))
    .filter((m): m is { b: TextBox; f: GlyphFeatures } => m.f !== null && m.f.inkHeight >= 8 && m.f.inkShare < 0.5);
  const allBoxes = rows.flatMap((r) => r.boxes);
  const words: FieldForgery['words'][number][] = [];
  for (const { b, f } of measured) {
    const number = digits(f.text) >= 4;
    const refs = measured.filter((m) => m.b !== b && m.b.confidence >= T.minRefConfidence).map((m) => m.f);
    if (refs.length < T.minRefWords) continue;
    const stroke = f.stroke / median(refs.map((r) => r.stroke));
    const cues: string[] = [];
    if (stroke < T.strokeShare) cues.push('weight');
    const long = refs.filter((r) => r.w >= 4 * r.inkHeight);
    if (number && long.length >= 2 && f.w >= 3 * f.inkHeight && Math.abs(f.tilt - median(long.map((r) => r.tilt))) >= T.tilt) cues.push('tilt');
    const numbers = refs.filter((r) => digits(r.text) >= 3);
    if (number && numbers.length >= 1 && f.inkHeight >= T.height * median(numbers.map((r) => r.inkHeight))) cues.push('height');
    if (cues.length === 0) continue;
    // Measured only beside another cue (it costs a blur of the word's surroundings); any lighter
    // word, a number or not: a re-typed value OCR garbles is still on its patch.
    const paper = paperTexture(g, b, allBoxes);
    if (paper && paper.around >= T.minPaperTexture && paper.inside <= T.paperShare * paper.around) cues.push('paper');
    if (number || cues.length >= 2) words.push({ text: f.text, cues, stroke, tilt: f.tilt });
  }
  // Two cues, one of them the weight or the paper: a lighter weight alone can be a regular line of
  // the card's own, a tall or tilted number a header's.
  return { suspicious: words.some((w) => w.cues.length >= 2 && (w.cues.includes('weight') || w.cues.includes('paper'))), words };
}
