/**
 * Finds where a PDF417 symbol sits in a photo without zxing's help: zxing locates a symbol by
 * its start and stop patterns, and a finger over one end, motion blur or small modules hide
 * them. A PDF417 is the densest patch of edges on a licence back, wider than tall; its block
 * cloud gives the symbol's orientation and extent, as a rotated rectangle to rectify.
 */
import type { GreyPlane } from '../raster.js';
import type { Quad } from '../warp.js';

/** Side of the square blocks the edge density is measured on. */
const BLOCK = 8;
/** Share of a block's pixels on a strong edge for it to count as barcode-like. */
const DENSE = 0.3;
/** The share asked for again when nothing at DENSE is shaped like a symbol (a dim, noisy capture). */
const DENSER = 0.5;

function edgeDensity(g: GreyPlane, block: number, share: number): { cols: number; rows: number; dense: Uint8Array } {
  const { data, width, height } = g;
  const cols = Math.floor(width / block);
  const rows = Math.floor(height / block);
  const count = new Uint16Array(cols * rows);
  // The threshold follows the image's contrast, so a dim capture's bars still count. The 1st and
  // 99th percentiles from a histogram: the same values a sorted copy gives, without sorting the
  // page (~90 ms a call at 2000 x 1500; the PDF417 and MRZ locators each ask on every page).
  const hist = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) hist[data[i]!]!++;
  const nth = (k: number): number => {
    let acc = 0;
    for (let v = 0; v < 256; v++) if ((acc += hist[v]!) > k) return v;
    return 255;
  };
  const range = Math.max(24, nth(Math.floor(data.length * 0.99)) - nth(Math.floor(data.length * 0.01)));
  const strong = range * 0.18;
  const yEnd = Math.min(rows * block - 1, height - 1);
  const xEnd = Math.min(cols * block - 1, width - 1);
  for (let y = 1; y < yEnd; y++) {
    const cell = Math.floor(y / block) * cols;
    for (let x = 1, i = y * width + 1; x < xEnd; x++, i++) {
      const gx = Math.abs(data[i + 1]! - data[i - 1]!);
      const gy = Math.abs(data[i + width]! - data[i - width]!);
      if (gx + gy > strong) count[cell + Math.floor(x / block)]!++;
    }
  }
  const dense = new Uint8Array(cols * rows);
  for (let k = 0; k < dense.length; k++) dense[k] = count[k]! >= share * block * block ? 1 : 0;
  return { cols, rows, dense };
}

/** Dense blocks closed by one block (gaps between codeword columns), as connected components. */
function components(cols: number, rows: number, dense: Uint8Array): number[][] {
  const closed = new Uint8Array(dense.length);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      if (dense[y * cols + x]) continue;
      const l = x > 0 && dense[y * cols + x - 1];
      const r = x < cols - 1 && dense[y * cols + x + 1];
      const u = y > 0 && dense[(y - 1) * cols + x];
      const d = y < rows - 1 && dense[(y + 1) * cols + x];
      if ((l && r) || (u && d)) closed[y * cols + x] = 1;
    }
  }
  for (let k = 0; k < dense.length; k++) closed[k] ||= dense[k]!;
  const seen = new Uint8Array(dense.length);
  const out: number[][] = [];
  for (let start = 0; start < closed.length; start++) {
    if (!closed[start] || seen[start]) continue;
    const comp: number[] = [];
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const k = stack.pop()!;
      comp.push(k);
      const x = k % cols;
      const y = (k - x) / cols;
      for (const [nx, ny] of [
        [x - 1, y],
        [x + 1, y],
        [x, y - 1],
        [x, y + 1],
      ] as const) {
        if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue;
        const n = ny * cols + nx;
        if (closed[n] && !seen[n]) {
          seen[n] = 1;
          stack.push(n);
        }
      }
    }
    out.push(comp);
  }
  return out;
}

/** A block cloud as a rotated rectangle: centre, long-axis angle and extents along / across it. */
export interface DenseRegion {
  readonly cx: number;
  readonly cy: number;
  readonly theta: number;
  readonly long: number;
  readonly short: number;
  /** Share of the rectangle covered by dense blocks. */
  readonly fill: number;
  /** The rectangle's corners: top-left, top-right, bottom-right, bottom-left along its long axis. */
  readonly quad: Quad;
}

function region(comp: readonly number[], cols: number, block: number): DenseRegion {
  const pts = comp.map((k) => ({ x: ((k % cols) + 0.5) * block, y: (Math.floor(k / cols) + 0.5) * block }));
  // Orientation from the second moments of the block cloud: the long axis.
  const mx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const my = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of pts) {
    sxx += (p.x - mx) ** 2;
    syy += (p.y - my) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  let u0 = Infinity;
  let u1 = -Infinity;
  let v0 = Infinity;
  let v1 = -Infinity;
  for (const p of pts) {
    const u = (p.x - mx) * c + (p.y - my) * s;
    const v = -(p.x - mx) * s + (p.y - my) * c;
    u0 = Math.min(u0, u - block / 2);
    u1 = Math.max(u1, u + block / 2);
    v0 = Math.min(v0, v - block / 2);
    v1 = Math.max(v1, v + block / 2);
  }
  const at = (u: number, v: number): { x: number; y: number } => ({ x: mx + u * c - v * s, y: my + u * s + v * c });
  const long = u1 - u0;
  const short = v1 - v0;
  return {
    cx: mx + ((u0 + u1) / 2) * c - ((v0 + v1) / 2) * s,
    cy: my + ((u0 + u1) / 2) * s + ((v0 + v1) / 2) * c,
    theta,
    long,
    short,
    fill: (comp.length * block * block) / Math.max(1, long * short),
    quad: [at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)],
  };
}

/** The dense block clouds of an image, largest first, as rotated rectangles. */
export function denseRegions(g: GreyPlane, block = BLOCK, dense = DENSE): DenseRegion[] {
  const grid = edgeDensity(g, block, dense);
  return components(grid.cols, grid.rows, grid.dense)
    .sort((a, b) => b.length - a.length)
    .map((comp) => ({ comp, r: region(comp, grid.cols, block) }))
    .filter(({ comp }) => comp.length >= 3)
    .map(({ r }) => r);
}

/**
 * The rotated rectangle round the largest barcode-like block cloud (corners top-left,
 * top-right, bottom-right, bottom-left, the long side horizontal), or null when nothing on the
 * image is dense, large and elongated enough to be a PDF417.
 */
export function locateBarcode(g: GreyPlane): Quad | null {
  const minArea = Math.max(24, (g.width / BLOCK) * (g.height / BLOCK) * 0.01) * BLOCK * BLOCK;
  // A dim capture stretched to the full range lifts the sensor noise of a dark background into
  // edges as strong as the bars: at the usual share its blocks join the symbol's into one cloud
  // the card's size (development `columns-wide` 23: 628 x 415 px, 41 % filled). The bars fill
  // their blocks more than that noise does: when nothing is found, denser blocks are asked for,
  // over a larger share of the frame (a symbol on a card that fills half the frame covers 4 % of
  // it or more; at this density a licence front's text block can show a smaller wide patch:
  // development front 3, 1.3 %).
  for (const [dense, least] of [
    [DENSE, minArea],
    [DENSER, 3 * minArea],
  ] as const) {
    for (const r of denseRegions(g, BLOCK, dense).slice(0, 3)) {
      if (r.fill * r.long * r.short < least) break;
      // A PDF417 on a licence is several times wider than tall; a text block or a portrait is not
      // that dense over such an area, and the fill ratio keeps a diagonal scatter of text out.
      if (r.long >= 2 * r.short && r.fill >= 0.5) return r.quad;
    }
  }
  return null;
}
