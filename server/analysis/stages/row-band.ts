/**
 * Lone short values the text detector passes over. PaddleOCR's detector finds words, and on a
 * 720-1080 px upload it drops a value of one or two letters standing alone ("F" for sex, "C"
 * for class, ~10 px) and some values of a row it found in part ("GRN" found, "F 4'-11\" … C"
 * beside it not). A licence prints its values in rows, so the ink beside a found value, in the
 * same row band and at the same print size, that no box covers is most likely a value the
 * detector missed: it is found here as dark connected components, grouped into words, and the
 * caller reads each word's crop alone with the recogniser (paddle.ts). Only ink that no box
 * covers is looked at, so a page the detector read whole costs one pass over its row bands.
 */
import type { GreyPlane } from '../raster.js';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** Rows whose boxes are smaller than this share of the page's median box are label rows: not scanned. */
const VALUE_ROW = 0.8;
/** Ink must be this much darker than its column's background (grey levels, at least). */
const MIN_CONTRAST = 40;
/** A stretch of band whose median is darker than this is no paper (the page is stretched to 0-255). */
const MIN_PAPER = 128;
/** At most this many words are handed back per page: each costs a recogniser call (~10-30 ms). */
const MAX_WORDS = 16;

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
/** The grey level below which a share `q` of a histogram's pixels lie. */
function quantile(hist: Uint32Array, q: number): number {
  const n = hist.reduce((a, b) => a + b, 0);
  let acc = 0;
  for (let v = 0; v < 256; v++) if ((acc += hist[v]!) > q * n) return v;
  return 255;
}
const centreY = (b: Rect): number => b.y + b.h / 2;
const inside = (px: number, py: number, b: Rect): boolean => px >= b.x && px <= b.x + b.w && py >= b.y && py <= b.y + b.h;

/** The detector's boxes grouped into rows by their vertical centres (as paddle-lines.ts does). */
function rowsOf(boxes: readonly Rect[]): Rect[][] {
  const rows: Rect[][] = [];
  for (const b of [...boxes].sort((p, q) => centreY(p) - centreY(q))) {
    const row = rows.find((r) => r.some((o) => Math.abs(centreY(o) - centreY(b)) < 0.5 * Math.min(o.h, b.h)));
    if (row) row.push(b);
    else rows.push([b]);
  }
  return rows;
}

/** A dark connected component's inclusive bounds on the page. */
export interface Blob {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Dark connected components of the rectangle [x0, x1) × [y0, y1) of the page: darker than the
 * median of their own stretch of the band (a light gradient leaves one side of a card darker)
 * by a third of the band's contrast, and by `MIN_CONTRAST` at least.
 */
export function blobs(g: GreyPlane, x0: number, y0: number, x1: number, y1: number): Blob[] {
  const w = x1 - x0;
  const h = y1 - y0;
  if (w <= 0 || h <= 0) return [];
  const chunk = Math.max(16, 4 * h);
  const thr = new Float32Array(w);
  // Grey-level histograms, not sorts: this runs over every value row of a page.
  const all = new Uint32Array(256);
  for (let y = y0; y < y1; y += 2) for (let x = x0; x < x1; x += 2) all[g.data[y * g.width + x]!]!++;
  const darkest = quantile(all, 0.01);
  for (let c = 0; c < w; c += chunk) {
    const hist = new Uint32Array(256);
    for (let y = y0; y < y1; y++) for (let x = x0 + c; x < Math.min(x1, x0 + c + chunk); x++) hist[g.data[y * g.width + x]!]!++;
    const bg = quantile(hist, 0.5);
    // A dark stretch (the portrait, a coloured band) holds no printed value on card stock.
    if (bg < MIN_PAPER) {
      thr.fill(-1, c, Math.min(w, c + chunk));
      continue;
    }
    const t = bg - Math.max(MIN_CONTRAST, 0.35 * (bg - darkest));
    for (let x = c; x < Math.min(w, c + chunk); x++) thr[x] = t;
  }
  const seen = new Uint8Array(w * h);
  const out: Blob[] = [];
  const stack: number[] = [];
  for (let s = 0; s < w * h; s++) {
    if (seen[s] || g.data[(y0 + Math.floor(s / w)) * g.width + x0 + (s % w)]! >= thr[s % w]!) continue;
    seen[s] = 1;
    stack.push(s);
    const b: Blob = { x0: w, y0: h, x1: 0, y1: 0 };
    while (stack.length) {
      const p = stack.pop()!;
      const px = p % w;
      const py = (p - px) / w;
      b.x0 = Math.min(b.x0, px);
      b.x1 = Math.max(b.x1, px);
      b.y0 = Math.min(b.y0, py);
      b.y1 = Math.max(b.y1, py);
      for (const q of [px > 0 ? p - 1 : -1, px < w - 1 ? p + 1 : -1, py > 0 ? p - w : -1, py < h - 1 ? p + w : -1]) {
        if (q < 0 || seen[q]) continue;
        if (g.data[(y0 + Math.floor(q / w)) * g.width + x0 + (q % w)]! >= thr[q % w]!) continue;
        seen[q] = 1;
        stack.push(q);
      }
    }
    out.push({ x0: b.x0 + x0, y0: b.y0 + y0, x1: b.x1 + x0, y1: b.y1 + y0 });
  }
  return out;
}

/**
 * Words of ink in the row bands of `boxes` that no box covers, each as the rectangle to read
 * (padded as the detector pads its boxes). A component counts as a glyph when it is about as tall
 * as the row's print (40-110 % of its boxes' height, which the detector pads by ~60 %), sits on
 * the row's centre line and is not a long stroke; glyphs a word space apart make one word.
 */
export function missedWords(g: GreyPlane, boxes: readonly Rect[]): Rect[] {
  if (!boxes.length) return [];
  const pageH = median(boxes.map((b) => b.h));
  const left = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.x))));
  const right = Math.min(g.width, Math.ceil(Math.max(...boxes.map((b) => b.x + b.w))));
  const words: Rect[] = [];
  for (const row of rowsOf(boxes)) {
    const rh = median(row.map((b) => b.h));
    if (rh < VALUE_ROW * pageH) continue;
    const cy = median(row.map(centreY));
    const y0 = Math.max(0, Math.floor(cy - 0.6 * rh));
    const y1 = Math.min(g.height, Math.ceil(cy + 0.6 * rh));
    const glyphs = blobs(g, left, y0, right, y1).filter((b) => {
      const [bw, bh] = [b.x1 - b.x0 + 1, b.y1 - b.y0 + 1];
      const mid = (b.y0 + b.y1) / 2;
      return (
        bh >= 0.4 * rh &&
        bh <= 1.1 * rh &&
        bw <= 1.5 * bh &&
        // Not cut by the band's edge: a glyph of this row lies within it.
        b.y0 > y0 &&
        b.y1 < y1 - 1 &&
        Math.abs(mid - cy) < 0.2 * rh &&
        // A box smaller than the glyph did not read it (a label's box caught on its edge).
        !boxes.some((o) => o.h >= 0.8 * bh && inside((b.x0 + b.x1) / 2, mid, o))
      );
    });
    glyphs.sort((a, b) => a.x0 - b.x0);
    let cur: Blob | null = null;
    const flush = (): void => {
      if (!cur) return;
      const gh = cur.y1 - cur.y0 + 1;
      // Padded as the detector pads its boxes (wider or taller crops read worse: the recogniser
      // then returns blanks for a lone letter).
      const h = 1.8 * gh;
      const w = cur.x1 - cur.x0 + 1 + 0.8 * gh;
      const x = cur.x0 - 0.4 * gh;
      // The word must not run into a box the detector found (that box reads it).
      if (!boxes.some((o) => o.h >= 0.6 * rh && o.x < x + w && x < o.x + o.w && Math.abs(centreY(o) - cy) < 0.5 * rh))
        words.push({ x: Math.max(0, x), y: Math.max(0, cur.y0 - 0.4 * gh), w: Math.min(g.width - Math.max(0, x), w), h });
      cur = null;
    };
    for (const b of glyphs) {
      const gh = b.y1 - b.y0 + 1;
      if (cur && b.x0 - cur.x1 <= 1.0 * Math.max(gh, cur.y1 - cur.y0 + 1)) {
        cur = { x0: cur.x0, y0: Math.min(cur.y0, b.y0), x1: Math.max(cur.x1, b.x1), y1: Math.max(cur.y1, b.y1) };
      } else {
        flush();
        cur = { ...b };
      }
    }
    flush();
  }
  return words.slice(0, MAX_WORDS);
}
