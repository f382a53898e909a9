/**
 * PDF417 reading (back of US/Canadian licences) with zxing-wasm, then AAMVA parsing.
 *
 * zxing misses PDF417 rotated by about 4° or more (architecture.md, "Known traps"), so the skew
 * is estimated from the gradient orientations and corrected before decoding; if that still fails
 * a short sweep of angles is tried. `textMode: 'Plain'` keeps AAMVA's control characters.
 */
import sharp, { type Sharp } from 'sharp';
import { getZxing } from '../engines.js';
import { stretchGrey, type GreyPlane } from '../raster.js';
import { distance, growQuad, warpQuad, type Quad } from '../warp.js';
import { AamvaFormatError, aamvaToProcessor, parseAamva, type AamvaRecord, type ProcessorField } from './aamva.js';
import { CAREFUL_FIT, fitSymbol, looksLikePdf417, sharpenRows, smoothColumns, straighten, type SymbolFit } from './barcode-fit.js';
import { locateBarcode } from './barcode-locate.js';
import { softDecodePdf417 } from './pdf417-soft.js';

/** Outcome of the barcode stage. */
export interface BarcodeResult {
  /** True when a PDF417 symbol was decoded. */
  readonly found: boolean;
  /** Raw decoded text (never logged: it is PII). */
  readonly text?: string;
  /** Rotation (degrees) applied before the successful decode. */
  readonly deskewAngle?: number;
  /** AAMVA record, when the text is one. */
  readonly aamva?: AamvaRecord;
  /** `document_processor` fields from the barcode. */
  readonly fields: Record<string, ProcessorField>;
  /** A PDF417 located (its start or stop bar seen) but not decoded: its box in the input plane's pixels. */
  readonly symbol?: Quad;
  /** Which attempt decoded the symbol (the eval reports zxing's attempts apart from the soft reader's). */
  readonly via?: DecodeVia;
}

/**
 * The attempt that decoded: zxing on the whole page (deskewed or as taken), on the symbol
 * rectified from its box, straightened along its fitted edges, or on a filtered page; or the
 * soft codeword reader (pdf417-soft.ts).
 */
export type DecodeVia = 'page' | 'rectified' | 'straightened' | 'soft' | 'page-filtered';

/**
 * Dominant edge orientation in degrees within (-45, 45]: the angle by which the page content
 * is rotated. PDF417 bars and text lines give strong peaks at the content's own 0/90°.
 */
export function estimateSkew(g: GreyPlane): number {
  // The OCR, the MRZ's row search and PaddleOCR's page each ask it of the same working page.
  const known = skews.get(g);
  if (known !== undefined) return known;
  const angle = skewOnce(g);
  skews.set(g, angle);
  return angle;
}

const skews = new WeakMap<GreyPlane, number>();

function skewOnce(g: GreyPlane): number {
  const { width, height } = g;
  // Smooth first: the staircase edges of a rotated raster are axis-aligned and would pull the
  // estimate to 0°. A 3x3 box blur followed by the Sobel operator removes that bias. The box sum
  // is taken as three-pixel row sums added down the column: integers, so the same sum of nine
  // (and the same s / 9) as adding the nine one by one, in about half the time.
  const src = g.data;
  const across = new Uint16Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) across[i] = src[i - 1]! + src[i]! + src[i + 1]!;
  }
  const data = new Float32Array(width * height);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) data[i] = (across[i - width]! + across[i]! + across[i + width]!) / 9;
  }
  const bins = new Float64Array(180); // 0.5° bins over 90°
  const step = Math.max(1, Math.floor(Math.min(width, height) / 700));
  for (let y = 2; y < height - 2; y += step) {
    for (let x = 2; x < width - 2; x += step) {
      const i = y * width + x;
      const gx = data[i - width + 1]! + 2 * data[i + 1]! + data[i + width + 1]! - data[i - width - 1]! - 2 * data[i - 1]! - data[i + width - 1]!;
      const gy = data[i + width - 1]! + 2 * data[i + width]! + data[i + width + 1]! - data[i - width - 1]! - 2 * data[i - width]! - data[i - width + 1]!;
      const mag = gx * gx + gy * gy;
      if (mag < 40 * 40) continue; // only real edges
      let a = (Math.atan2(gy, gx) * 180) / Math.PI; // -180..180
      a = ((a % 90) + 90) % 90; // fold to [0, 90)
      bins[Math.floor(a * 2) % 180]! += Math.sqrt(mag);
    }
  }
  const smooth = (b: number): number => {
    let v = 0;
    for (let k = -2; k <= 2; k++) v += bins[(b + k + 180) % 180]! * (3 - Math.abs(k));
    return v;
  };
  let best = 0;
  let bestV = -1;
  for (let b = 0; b < 180; b++) {
    const v = smooth(b);
    if (v > bestV) {
      bestV = v;
      best = b;
    }
  }
  // Parabolic interpolation around the peak for sub-bin precision.
  const l = smooth((best + 179) % 180);
  const r = smooth((best + 1) % 180);
  const denom = l - 2 * bestV + r;
  const offset = denom !== 0 ? (0.5 * (l - r)) / denom : 0;
  let angle = (best + 0.5 + offset) / 2;
  if (angle > 45) angle -= 90;
  return angle;
}

async function rotateGrey(g: GreyPlane, angle: number): Promise<GreyPlane> {
  if (Math.abs(angle) < 0.25) return g;
  const { data, info } = await sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.byteLength), {
    raw: { width: g.width, height: g.height, channels: 1 },
  })
    .rotate(angle, { background: { r: 255, g: 255, b: 255 } })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** What zxing reads: the shape of the browser's ImageData (the server's type library has no DOM). */
type ZxingImage = Parameters<Awaited<ReturnType<typeof getZxing>>['readBarcodesFromImageData']>[0];

function asImageData(g: GreyPlane): ZxingImage {
  const rgba = new Uint8ClampedArray(g.width * g.height * 4);
  for (let i = 0, j = 0; i < g.data.length; i++, j += 4) {
    const v = g.data[i]!;
    rgba[j] = v;
    rgba[j + 1] = v;
    rgba[j + 2] = v;
    rgba[j + 3] = 255;
  }
  return { data: rgba, width: g.width, height: g.height, colorSpace: 'srgb' } as ZxingImage;
}

/** What one zxing attempt found: the text, or whether a symbol was at least located (and where). */
interface Attempt {
  readonly text: string | null;
  readonly located: boolean;
  /** The symbol's corners when zxing found all four (start and stop patterns both seen). */
  readonly quad: Quad | null;
}

type Binarizer = 'LocalAverage' | 'GlobalHistogram' | 'FixedThreshold';

async function decodeOnce(g: GreyPlane, binarizer: Binarizer = 'LocalAverage'): Promise<Attempt> {
  const zxing = await getZxing();
  const results = await zxing.readBarcodesFromImageData(asImageData(g), {
    formats: ['PDF417'],
    textMode: 'Plain',
    tryHarder: true,
    tryRotate: true,
    maxNumberOfSymbols: 1,
    binarizer,
    // Symbols found but not decoded come back as errors: they say a retry is worth its time.
    returnErrors: true,
  });
  const hit = results.find((r) => r.isValid && r.text.length > 0);
  const p = results[0]?.position;
  const corners = p ? ([p.topLeft, p.topRight, p.bottomRight, p.bottomLeft] as const) : null;
  // zxing reports a corner it did not find as (0, 0).
  const quad = corners && corners.every((c) => c.x > 0 || c.y > 0) ? corners : null;
  return { text: hit ? hit.text : null, located: results.length > 0, quad };
}

async function filtered(g: GreyPlane, f: (s: Sharp) => Sharp): Promise<GreyPlane> {
  const input = sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.byteLength), { raw: { width: g.width, height: g.height, channels: 1 } });
  const { data, info } = await f(input).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Retries for a symbol that was located but not decoded (sensor noise, JPEG blocks): each
 * smooths the noise or binarises differently. A Gaussian of σ 1.2 decoded noisy backs that the
 * median filter did not (docs/analysis.md); the global-histogram binariser and a 0.6× downscale
 * help where the local binariser breaks bars up (issue 20).
 */
const RETRIES: readonly { readonly filter: (s: Sharp, g: GreyPlane) => Sharp; readonly binarizer?: 'GlobalHistogram' }[] = [
  { filter: (s) => s.blur(1.2) },
  { filter: (s) => s.median(3) },
  { filter: (s) => s, binarizer: 'GlobalHistogram' },
  { filter: (s) => s.blur(1.2), binarizer: 'GlobalHistogram' },
  { filter: (s, g) => s.resize(Math.round(g.width * 0.6)) },
];

/**
 * Attempts on the symbol cut out and rectified (issue 20): a phone's 720-1080 px upload leaves
 * a licence's PDF417 at about 2 px per module, under perspective, blur and noise, where zxing
 * reads the whole photo badly. The quad is mapped onto an upright rectangle at 2x and 3x;
 * sharpening counters defocus and motion blur, a Gaussian the sensor noise, and the fixed and
 * global binarisers help where the local one breaks the bars up. Measured on the development
 * half of the hard set (docs/analysis.md): most backs that failed decode in the first two.
 */
const RECTIFIED: readonly { readonly scale: number; readonly filter?: (s: Sharp, scale: number) => Sharp; readonly binarizer?: Binarizer }[] = [
  { scale: 2 },
  { scale: 3 },
  { scale: 3, filter: (s) => s.sharpen({ sigma: 2, m1: 1, m2: 6 }) },
  { scale: 3, filter: (s) => s.sharpen({ sigma: 3, m1: 0, m2: 4 }) },
  { scale: 3, filter: (s) => s.sharpen({ sigma: 3, m1: 0, m2: 4 }), binarizer: 'FixedThreshold' },
  { scale: 2, binarizer: 'GlobalHistogram' },
  { scale: 3, filter: (s, k) => s.blur(0.5 * k) },
];

/** Longest side of a rectified symbol: bounds the cost on a huge upload. */
const MAX_RECTIFIED_SIDE = 2400;

async function decodeRectified(g: GreyPlane, quad: Quad): Promise<string | null> {
  // A quiet zone round the symbol: the locator's box hugs the bars, zxing's the patterns.
  const grown = growQuad(quad, 0.04, 0.2);
  const long = distance(grown[0], grown[1]);
  const short = distance(grown[0], grown[3]);
  const warped = new Map<number, GreyPlane | null>();
  for (const attempt of RECTIFIED) {
    const scale = Math.min(attempt.scale, MAX_RECTIFIED_SIDE / Math.max(1, long));
    if (!warped.has(scale)) warped.set(scale, warpQuad(g, grown, Math.round(long * scale), Math.max(8, Math.round(short * scale))));
    const plane = warped.get(scale);
    if (!plane) return null;
    const input = attempt.filter ? await filtered(plane, (s) => attempt.filter!(s, scale)) : plane;
    const hit = await decodeOnce(input, attempt.binarizer);
    if (hit.text) return hit.text;
  }
  return null;
}

/**
 * Attempts on the symbol straightened along its own fitted edges (barcode-fit.ts), for the
 * symbols whose rows still lean or bend after the box rectification: a steep angle and a
 * wide-angle lens. At 3x, plain, then sharpened across the bars (σ 3 px, gain 2.5: the one
 * setting that decoded a development back the others missed, under the stress sweep's steeper
 * angle), then that after smoothing along the bars.
 */
const STRAIGHTENED: readonly { readonly filter: (g: GreyPlane) => GreyPlane; readonly binarizer?: Binarizer }[] = [
  { filter: (g) => g },
  { filter: (g) => sharpenRows(g, 3, 2.5) },
  { filter: (g) => sharpenRows(smoothColumns(g, 3), 3, 2.5) },
];

async function decodeStraightened(g: GreyPlane, fit: SymbolFit, quad: Quad): Promise<string | null> {
  const plane = straighten(g, fit, Math.min(3, MAX_RECTIFIED_SIDE / Math.max(1, distance(quad[0], quad[1]))));
  if (!plane) return null;
  for (const attempt of STRAIGHTENED) {
    const hit = await decodeOnce(attempt.filter(plane), attempt.binarizer);
    if (hit.text) return hit.text;
  }
  return null;
}

/**
 * Finds and decodes a PDF417 symbol; returns the text and the rotation that worked. The skew
 * estimate is tried first (zxing fails even at 1.5° on some symbols), then the unrotated
 * image, then the symbol rectified from its corners (where zxing saw both ends, or where the
 * edge-density locator puts it), then straightened along its own fitted edges (a PDF417 only);
 * only when zxing located a symbol are the filtered retries of the whole image run (most documents have no PDF417, and each attempt costs ~100-300 ms).
 */
function isAamva(text: string): boolean {
  try {
    parseAamva(text);
    return true;
  } catch (err: unknown) {
    if (err instanceof AamvaFormatError) return false;
    throw err;
  }
}

export async function decodePdf417(input: GreyPlane): Promise<{ text: string; angle: number; via: DecodeVia } | { text: null; symbol: Quad | null }> {
  // Stretched first (a dim capture's bars span a few dozen grey levels): the fixed and global
  // binarisers, and the white corners a rotation opens, assume a page that spans the range.
  const g = stretchGrey(input);
  const skew = estimateSkew(g);
  const first = Math.abs(skew) >= 0.5 ? Math.round(-skew * 2) / 2 : 0;
  const deskewed = await rotateGrey(g, first);
  const direct = await decodeOnce(deskewed);
  if (direct.text) return { text: direct.text, angle: first, via: 'page' };
  let located = direct.located;
  let zxingQuad = direct.quad;
  // Without the deskew the symbol may still read (an estimate thrown off by other content).
  if (first !== 0) {
    const plain = await decodeOnce(g);
    if (plain.text) return { text: plain.text, angle: 0, via: 'page' };
    located ||= plain.located;
    zxingQuad = plain.quad;
  }
  const { own, fit, symbol } = locatedSymbol(g);
  for (const quad of [own, zxingQuad]) {
    const text = quad ? await decodeRectified(g, quad) : null;
    if (text) return { text, angle: 0, via: 'rectified' };
  }
  if (symbol && fit) {
    const text = await decodeStraightened(g, fit, symbol);
    if (text) return { text, angle: 0, via: 'straightened' };
    // zxing decides each bar before it reads a codeword; the soft reader compares whole
    // codewords in grey and tells Reed-Solomon which ones it is unsure of (pdf417-soft.ts).
    // A soft read counts only as a valid AAMVA record: anything else is left undecoded.
    const soft = softDecodePdf417(g, fit);
    if (soft && isAamva(soft)) return { text: soft, angle: 0, via: 'soft' };
    // The edges measured again over wider bands, the ends at fainter bars (CAREFUL_FIT), for
    // the soft reader alone: only where nothing decoded, so no symbol read before is lost.
    const careful = fitSymbol(g, symbol, CAREFUL_FIT);
    const again = careful ? softDecodePdf417(g, careful) : null;
    if (again && isAamva(again)) return { text: again, angle: 0, via: 'soft' };
  }
  if (located) {
    for (const retry of RETRIES) {
      const attempt = await decodeOnce(await filtered(deskewed, (s) => retry.filter(s, deskewed)), retry.binarizer);
      if (attempt.text) return { text: attempt.text, angle: first, via: 'page-filtered' };
    }
  }
  return { text: null, symbol };
}

/** The block of barcode-dense edges on a stretched page, its fitted edges, and the block again when it is a PDF417. */
interface Located {
  readonly own: Quad | null;
  readonly fit: SymbolFit | null;
  /** `own` when its start or stop bar is seen (a PDF417 at all): it tells a licence back whose symbol is unreadable from a page without one. */
  readonly symbol: Quad | null;
}

/**
 * The located block of a stretched page, made once: a front with a portrait is asked whether it
 * may hold a PDF417 and, when it may, is searched for one (~150 ms of CPU each time at 2000 px).
 */
function locatedSymbol(g: GreyPlane): Located {
  const known = located.get(g);
  if (known) return known;
  const own = locateBarcode(g);
  const fit = own ? fitSymbol(g, own) : null;
  const found = { own, fit, symbol: own && fit && looksLikePdf417(g, fit) ? own : null };
  located.set(g, found);
  return found;
}

const located = new WeakMap<GreyPlane, Located>();

/**
 * Whether the page may hold a PDF417: a block of barcode-dense edges whose start or stop bar is
 * seen (barcode-locate.ts, barcode-fit.ts). With a portrait also on the page (a licence front, a
 * passport's data page), a page where this is false is not searched (pipeline.ts): on the
 * development backs every symbol, decoded or not, showed its bars here, and no back a portrait.
 */
export function mayHoldPdf417(input: GreyPlane): boolean {
  return locatedSymbol(stretchGrey(input)).symbol !== null;
}

/** The barcode stage: decode, parse AAMVA when possible, map to `document_processor`. */
export async function runBarcode(g: GreyPlane, today: Date): Promise<BarcodeResult> {
  const hit = await decodePdf417(g);
  if (hit.text === null) return hit.symbol ? { found: false, fields: {}, symbol: hit.symbol } : { found: false, fields: {} };
  try {
    const aamva = parseAamva(hit.text);
    return { found: true, text: hit.text, deskewAngle: hit.angle, aamva, fields: aamvaToProcessor(aamva, today), via: hit.via };
  } catch (err: unknown) {
    if (err instanceof AamvaFormatError) return { found: true, text: hit.text, deskewAngle: hit.angle, fields: {}, via: hit.via };
    throw err;
  }
}
