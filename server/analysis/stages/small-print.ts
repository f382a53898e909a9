/**
 * Lines of small print the text detector boxed only in part. On a 720-1080 px upload a licence's
 * smallest line (the document discriminator, 6-8 px tall) is boxed in pieces or cut short
 * ("DD67545105615530" of a 20-digit run; "5083" and "55210" for "5 DD C8389835121OC"), and each
 * piece read alone is noise. A piece of small print is grown here along its own row through the
 * ink that continues it: dark components as tall as the piece's own glyphs, on its centre line, a
 * word space apart at most, not inside a box of larger print. When the grown line reaches ink no
 * box covered, the caller reads it whole as one crop (paddle.ts) in place of its pieces; so too a
 * small box the recogniser was unsure of, the detector's crop being too tight around its glyphs.
 */
import type { GreyPlane } from '../raster.js';
import { blobs, type Blob, type Rect } from './row-band.js';

/** A box lower than this share of the page's median box is small print (labels, the discriminator). */
const SMALL = 0.7;
/** Ink joins the line across gaps of up to this many glyph heights (a word space, not a column's). */
const GAP = 1.2;
/** A line is re-read only when it grew past its pieces by this share of their width at least. */
const GROWTH = 0.25;
/** Glyphs lower than this (px) are not read: halftone dots and guilloche specks. */
const MIN_GLYPH = 4;

export interface GrownLine {
  /** The crop to read, padded as the detector pads its boxes. */
  readonly rect: Rect;
  /** Indices of the boxes it covers (replaced by its reading when that is kept). */
  readonly replaces: readonly number[];
  /** Whether its ink runs past its boxes (by `GROWTH` of their width): a piece or a line cut short. */
  readonly grew: boolean;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const midY = (k: Blob): number => (k.y0 + k.y1) / 2;
const height = (k: Blob): number => k.y1 - k.y0 + 1;
const inside = (px: number, py: number, b: Rect): boolean => px >= b.x && px <= b.x + b.w && py >= b.y && py <= b.y + b.h;

/**
 * Each line of small print, as far as its ink runs, with the boxes it covers: the caller re-reads
 * the lines that grew past their boxes, and those whose boxes were read unsure (a box no taller
 * than its glyphs cuts them: "82220" at 29 % for "03/22/2025", re-read from a padded crop).
 */
export function grownSmallLines(g: GreyPlane, boxes: readonly Rect[]): GrownLine[] {
  if (boxes.length < 3) return [];
  const pageH = median(boxes.map((b) => b.h));
  const big = boxes.filter((b) => b.h >= SMALL * pageH);
  const used = new Set<number>();
  const out: GrownLine[] = [];
  boxes.forEach((seed, i) => {
    if (used.has(i) || seed.h >= SMALL * pageH) return;
    const cy = seed.y + seed.h / 2;
    // The band holds a small glyph whole wherever the detector's box sat on it.
    const half = Math.max(8, 0.6 * pageH);
    const y0 = Math.max(0, Math.floor(cy - half));
    const y1 = Math.min(g.height, Math.ceil(cy + half));
    const ink = blobs(g, 0, y0, g.width, y1).filter((k) => k.y0 > y0 && k.y1 < y1 - 1 && height(k) >= MIN_GLYPH);
    const own = ink.filter((k) => inside((k.x0 + k.x1) / 2, midY(k), seed));
    if (!own.length) return;
    const gh = median(own.map(height));
    const mid = median(own.map(midY));
    if (gh >= SMALL * pageH) return;
    // Ink of this line: its glyphs' height, on its centre line, not part of larger print.
    const line = ink
      .filter((k) => height(k) >= 0.5 * gh && height(k) <= 1.4 * gh && Math.abs(midY(k) - mid) < 0.35 * gh)
      .filter((k) => !big.some((b) => inside((k.x0 + k.x1) / 2, midY(k), b)));
    let x0 = Math.min(...own.map((k) => k.x0));
    let x1 = Math.max(...own.map((k) => k.x1));
    for (const k of [...line].sort((a, b) => a.x0 - b.x0)) {
      if (k.x1 <= x1) continue;
      if (k.x0 - x1 > GAP * gh) break;
      x1 = k.x1;
    }
    for (const k of [...line].sort((a, b) => b.x1 - a.x1)) {
      if (k.x0 >= x0) continue;
      if (x0 - k.x1 > GAP * gh) break;
      x0 = k.x0;
    }
    const rect: Rect = { x: Math.max(0, x0 - 0.5 * gh), y: Math.max(0, mid - 0.9 * gh), w: x1 - x0 + 1 + gh, h: 1.8 * gh };
    // The small boxes on this line inside its span are its pieces.
    const replaces = boxes.flatMap((b, j) =>
      b.h < SMALL * pageH && Math.abs(b.y + b.h / 2 - mid) < Math.max(gh, 0.5 * b.h) && b.x + b.w / 2 >= x0 && b.x + b.w / 2 <= x1 ? [j] : [],
    );
    if (!replaces.includes(i)) replaces.push(i);
    const pieces = replaces.reduce((s, j) => s + boxes[j]!.w, 0);
    replaces.forEach((j) => used.add(j));
    out.push({ rect, replaces, grew: x1 - x0 + 1 >= (1 + GROWTH) * pieces });
  });
  return out;
}
