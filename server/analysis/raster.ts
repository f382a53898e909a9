/**
 * Small raster helpers shared by the stages. Images travel between stages as raw, oriented,
 * 8-bit pixels so that no stage decodes the upload twice.
 */
import sharp, { type Sharp } from 'sharp';

/** Raw interleaved 8-bit pixels (1 = grey, 3 = RGB). */
export interface Raster {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 3;
}

/** Grey plane as one byte per pixel. */
export interface GreyPlane {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** A sharp pipeline reading a raster. */
export function sharpFromRaster(r: Raster): Sharp {
  return sharp(r.data, { raw: { width: r.width, height: r.height, channels: r.channels } });
}

/** Decodes any image sharp understands into an RGB raster (no orientation change). */
export async function rasterFrom(pipeline: Sharp): Promise<Raster> {
  const { data, info } = await pipeline.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const channels = info.channels === 1 ? 1 : 3;
  return { data, width: info.width, height: info.height, channels };
}

/** Downscales (never upscales) so the longer side is at most `maxSide`. */
export async function fitRaster(r: Raster, maxSide: number): Promise<Raster> {
  if (Math.max(r.width, r.height) <= maxSide) return r;
  return rasterFrom(sharpFromRaster(r).resize({ width: maxSide, height: maxSide, fit: 'inside' }));
}

/** Luma plane (Rec. 601) of a raster. */
export function toGrey(r: Raster): GreyPlane {
  if (r.channels === 1) return { data: r.data, width: r.width, height: r.height };
  const n = r.width * r.height;
  const out = new Uint8Array(n);
  const d = r.data;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    out[i] = (d[j]! * 299 + d[j + 1]! * 587 + d[j + 2]! * 114 + 500) / 1000;
  }
  return { data: out, width: r.width, height: r.height };
}

/** Copies the rectangle [x, y, w, h] (clamped to the image) out of a grey plane. */
export function cropGrey(g: GreyPlane, x: number, y: number, w: number, h: number): GreyPlane {
  const x0 = Math.max(0, Math.floor(x));
  const y0 = Math.max(0, Math.floor(y));
  const x1 = Math.min(g.width, Math.floor(x + w));
  const y1 = Math.min(g.height, Math.floor(y + h));
  const cw = Math.max(0, x1 - x0);
  const ch = Math.max(0, y1 - y0);
  const out = new Uint8Array(cw * ch);
  for (let row = 0; row < ch; row++) {
    out.set(g.data.subarray((y0 + row) * g.width + x0, (y0 + row) * g.width + x0 + cw), row * cw);
  }
  return { data: out, width: cw, height: ch };
}

/** Variance of the 4-neighbour Laplacian: the standard focus measure (higher = sharper). */
export function laplacianVariance(g: GreyPlane): number {
  const { data, width, height } = g;
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const i = row + x;
      const v = data[i - 1]! + data[i + 1]! + data[i - width]! + data[i + width]! - 4 * data[i]!;
      sum += v;
      sumSq += v * v;
      n++;
    }
  }
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

/**
 * Stretches a grey plane so its 1st and 99th percentiles become 0 and 255: a dim capture's text
 * gets the contrast fixed thresholds expect (issue 20: exposure is judged after normalising).
 * Returns the plane itself when it already spans most of the range.
 */
export function stretchGrey(g: GreyPlane): GreyPlane {
  // The barcode, MRZ and OCR stages each stretch the same working page: once is enough (planes
  // are never written to after they are made).
  const known = stretched.get(g);
  if (known) return known;
  const out = stretchOnce(g);
  stretched.set(g, out);
  return out;
}

const stretched = new WeakMap<GreyPlane, GreyPlane>();

function stretchOnce(g: GreyPlane): GreyPlane {
  const hist = new Uint32Array(256);
  for (const v of g.data) hist[v]!++;
  const at = (p: number): number => {
    let acc = 0;
    for (let v = 0; v < 256; v++) {
      acc += hist[v]!;
      if (acc >= g.data.length * p) return v;
    }
    return 255;
  };
  const lo = at(0.01);
  const hi = at(0.99);
  if (hi - lo >= 200 || hi <= lo) return g;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(((v - lo) * 255) / (hi - lo))));
  const out = new Uint8Array(g.data.length);
  for (let i = 0; i < out.length; i++) out[i] = lut[g.data[i]!]!;
  return { data: out, width: g.width, height: g.height };
}
