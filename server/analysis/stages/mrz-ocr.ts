/**
 * OCR of an MRZ zone's pixels (mrz.ts finds the zone and combines the readings): the zone read
 * whole as one block, and each of its lines cut out and read alone at the OCR-B model's best
 * glyph height.
 */
import sharp, { type Sharp } from 'sharp';
import { getTesseract, type OcrEngineKind } from '../engines.js';
import { cropGrey, type GreyPlane } from '../raster.js';

export async function greyBuffer(g: GreyPlane): Promise<Sharp> {
  return sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.byteLength), { raw: { width: g.width, height: g.height, channels: 1 } });
}

/** Gaussian sigma (px) that takes a dim page's stretched sensor noise under its text edges. */
export const SMOOTH_SIGMA = 1.5;

/** OCR of a band crop with an MRZ engine; returns the raw text. */
export async function ocrBand(
  g: GreyPlane,
  top: number,
  bottom: number,
  lineHeight: number,
  engine: OcrEngineKind,
  binarise = true,
  noisy = false,
): Promise<string> {
  const pad = Math.round(lineHeight * 0.8);
  const crop = cropGrey(g, 0, top - pad, g.width, bottom - top + 2 * pad);
  // Tesseract's legacy engine likes ~30-40 px capitals on a clean white background.
  const scale = Math.max(0.5, Math.min(4, 36 / Math.max(1, lineHeight)));
  return recognise(crop, scale, engine, binarise, noisy);
}

async function recognise(crop: GreyPlane, scale: number, engine: OcrEngineKind, binarise: boolean, noisy: boolean): Promise<string> {
  const enlarged = (await greyBuffer(crop)).resize({ width: Math.round(crop.width * scale), kernel: 'lanczos3' });
  // Noise enlarged with the glyphs breaks the threshold into specks: smoothed at the new scale.
  const resized = (noisy ? enlarged.blur(Math.max(0.5, SMOOTH_SIGMA * scale * 0.6)) : enlarged).normalise();
  // One grey band, as the page's OCR (ocr.ts): the same pixels as the three equal bands sharp writes by default.
  const png = await (binarise ? resized.threshold(128) : resized)
    .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' })
    .extractChannel(0)
    .png()
    .toBuffer();
  const worker = await getTesseract(engine);
  const { data } = await worker.recognize(png);
  return data.text;
}

/**
 * Rows of a rectified zone that hold each of its `count` text lines: the rows' edge energy is
 * split at its valleys near k/count of the height (the zone is cut with about a line's margin
 * above and below), and each line is the run of rows round its part's peak that stays above
 * 40 % of the way from that part's floor to its peak. Edge energy, not darkness: a dim
 * gradient or a shadow across the zone has no edges.
 */
export function lineBands(g: GreyPlane, count: number, lineHeight: number): [number, number][] {
  const energy = new Float64Array(g.height);
  for (let y = 0; y < g.height; y++) {
    let s = 0;
    const row = y * g.width;
    for (let x = 1; x < g.width; x++) s += Math.abs(g.data[row + x]! - g.data[row + x - 1]!);
    energy[y] = s / Math.max(1, g.width);
  }
  const r = Math.max(1, Math.round(lineHeight / 8));
  const smooth = Array.from(energy, (_, y) => {
    let s = 0;
    let n = 0;
    for (let k = Math.max(0, y - r); k <= Math.min(g.height - 1, y + r); k++, n++) s += energy[k]!;
    return s / Math.max(1, n);
  });
  const cuts = [0];
  for (let k = 1; k < count; k++) {
    const mid = Math.round((g.height * k) / count);
    const reach = Math.round(g.height / (3 * count));
    let best = mid;
    for (let y = Math.max(0, mid - reach); y <= Math.min(g.height - 1, mid + reach); y++) if (smooth[y]! < smooth[best]!) best = y;
    cuts.push(best);
  }
  cuts.push(g.height);
  const bands: [number, number][] = [];
  for (let k = 0; k < count; k++) {
    const [from, to] = [cuts[k]!, cuts[k + 1]!];
    if (to <= from) continue;
    let peak = from;
    let floor = Infinity;
    for (let y = from; y < to; y++) {
      if (smooth[y]! > smooth[peak]!) peak = y;
      floor = Math.min(floor, smooth[y]!);
    }
    const on = (y: number): boolean => smooth[y]! >= floor + 0.4 * (smooth[peak]! - floor);
    let a = peak;
    let b = peak;
    while (a > from && on(a - 1)) a--;
    while (b < to - 1 && on(b + 1)) b++;
    bands.push([a, b + 1]);
  }
  return bands;
}

/**
 * Height (px) each MRZ line's band of glyph edges is scaled to when read alone. Read whole, a
 * zone's glyphs come out ~24 px tall; the model read the lines of blurred and small development
 * passports better one at a time at 32-48 (each line's edit distance to the truth, 40 in grey:
 * 21 of 24 blurred and small lines exact where the whole-zone reads missed), and binarised
 * worse at every height.
 */
export const LINE_GLYPH_HEIGHT = 40;

/**
 * Each line of a rectified zone cut out (half its height of margin) and read alone by the OCR-B
 * model in grey, its glyphs scaled to {@link LINE_GLYPH_HEIGHT}. One reading per line, top to
 * bottom (empty where the model read nothing).
 */
export async function ocrLines(g: GreyPlane, count: number, lineHeight: number, noisy: boolean): Promise<string[]> {
  const out: string[] = [];
  for (const [top, bottom] of lineBands(g, count, lineHeight)) {
    const h = bottom - top;
    const pad = Math.round(h * 0.5);
    const crop = cropGrey(g, 0, top - pad, g.width, h + 2 * pad);
    const text = await recognise(crop, Math.max(0.5, Math.min(6, LINE_GLYPH_HEIGHT / Math.max(1, h))), 'mrz-ocrb', false, noisy);
    out.push(text.replace(/\s+/g, ''));
  }
  return out;
}
