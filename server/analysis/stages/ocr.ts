/**
 * Full-document OCR with tesseract.js (LSTM engine, English data from
 * `@tesseract.js-data/eng`). The text feeds `dlp_analysis`, `doc_type` and the printed-field
 * reader for documents without a barcode or MRZ.
 */
import sharp from 'sharp';
import { getTesseract } from '../engines.js';
import { stretchGrey, type GreyPlane } from '../raster.js';
import { estimateSkew } from './barcode.js';
import { pairLabels, type BoxRow, type TextBox } from './label-pairing.js';

/** One recognised line of text with tesseract's confidence (0-100). */
export interface OcrLine {
  readonly text: string;
  readonly confidence: number;
  /** Median height of its words on the page read, when the reader gave boxes: print size tells a value from a label. */
  readonly height?: number;
}

export interface OcrResult {
  readonly text: string;
  readonly lines: readonly OcrLine[];
  /** Mean word confidence (0-100). */
  readonly confidence: number;
  /** tesseract's lines of word boxes, in the pixels of the upright page it read (field-forgery.ts compares them). */
  readonly rows?: readonly BoxRow[];
  /** PaddleOCR's boxes on the upright page it read: a label's place, for reading its value again (label-reread.ts). */
  readonly boxes?: readonly TextBox[];
}

/** Longest side the page is OCRed at: enough for ID text, bounded for speed. */
const OCR_SIDE = 1800;
const CLAHE_TILE = 64;

function medianGrey(g: GreyPlane): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < g.data.length; i += 7) hist[g.data[i]!]!++;
  let acc = 0;
  const half = Math.ceil(g.data.length / 7) / 2;
  for (let v = 0; v < 256; v++) if ((acc += hist[v]!) >= half) return v;
  return 128;
}

/**
 * The page as the readers see it: stretched (p1-p99), then turned upright by the skew estimate
 * unless `deskew` is false. Stretched before it is rotated, and the corners the rotation opens
 * filled with the page's median grey: white corners on a dim page left it no room to normalise,
 * and tesseract's global threshold then split white corners from everything else (a dim
 * development front read no line at all deskewed, 10 as taken).
 */
export function uprightPage(g: GreyPlane, deskew = true): Promise<GreyPlane> {
  // tesseract's pass and PaddleOCR's read the same upright page: turned once.
  const known = upright.get(g)?.[deskew ? 1 : 0];
  if (known) return known;
  const made = turnUpright(g, deskew);
  const pair = upright.get(g) ?? [undefined, undefined];
  pair[deskew ? 1 : 0] = made;
  upright.set(g, pair);
  return made;
}

const upright = new WeakMap<GreyPlane, [Promise<GreyPlane> | undefined, Promise<GreyPlane> | undefined]>();

async function turnUpright(g: GreyPlane, deskew: boolean): Promise<GreyPlane> {
  const angle = deskew ? -estimateSkew(g) : 0;
  const page = stretchGrey(g);
  if (Math.abs(angle) < 0.3) return page;
  const fill = medianGrey(page);
  const { data, info } = await sharp(Buffer.from(page.data.buffer, page.data.byteOffset, page.data.byteLength), {
    raw: { width: page.width, height: page.height, channels: 1 },
  })
    .rotate(angle, { background: { r: fill, g: fill, b: fill } })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Deskews and OCRs a grey page; `deskew: false` reads it as it is (see {@link readPrinted}). */
export async function runOcr(g: GreyPlane, deskew = true, handed?: () => void): Promise<OcrResult> {
  return ocrPage(await uprightPage(g, deskew), handed);
}

/**
 * OCRs a page already made upright by {@link uprightPage}. A page is read once: a page whose
 * skew is under the rotation's threshold is the same plane deskewed or as taken, and the
 * pipeline's second, as-taken read of it would repeat the first (~1.5 s of CPU at 1800 px, most
 * of it the CLAHE below).
 */
export function ocrPage(page: GreyPlane, handed?: () => void): Promise<OcrResult> {
  const known = reads.get(page);
  if (known) {
    handed?.();
    return known;
  }
  const read = readPage(page, handed);
  reads.set(page, read);
  return read;
}

const reads = new WeakMap<GreyPlane, Promise<OcrResult>>();

/** `handed` is called once the page is with tesseract's worker: from then on this thread is free for other work. */
async function readPage(page: GreyPlane, handed?: () => void): Promise<OcrResult> {
  const img = sharp(Buffer.from(page.data.buffer, page.data.byteOffset, page.data.byteLength), {
    raw: { width: page.width, height: page.height, channels: 1 },
  });
  // Small captures (720-1080 px phone uploads) are enlarged: tesseract misreads capitals under
  // ~20 px, which is what a licence's field values are at that size. At most 2x.
  const side = Math.min(OCR_SIDE, 2 * Math.max(page.width, page.height));
  // Local contrast (CLAHE, 64 px tiles): a light gradient or vignette leaves one side of a card
  // darker than the other, and tesseract binarises the page with one threshold. On development
  // fronts 0-23: 209 of 384 fields exact with it, 197 without.
  const png = await img
    .resize({ width: side, height: side, fit: 'inside' })
    .clahe({ width: CLAHE_TILE, height: CLAHE_TILE })
    .normalise()
    // One grey band: sharp would write the page as RGB with three equal bands, the same pixels
    // that tesseract then reads more slowly (development fronts and passports: identical
    // words, boxes and confidences, the recognition ~25 % faster; docs/performance.md).
    .extractChannel(0)
    .png({ compressionLevel: 1 })
    .toBuffer();
  const worker = await getTesseract('text');
  const reading = worker.recognize(png, {}, { text: true, blocks: true });
  handed?.();
  const { data } = await reading;
  // Each line with its words' boxes: a label printed above its value is paired by geometry.
  const rows: BoxRow[] = [];
  const back = Math.max(page.width, page.height) / side;
  const onPage: BoxRow[] = [];
  for (const block of data.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        const boxes = line.words
          .filter((w) => w.text.trim())
          .map((w) => ({ text: w.text.trim(), confidence: w.confidence, x: w.bbox.x0, y: w.bbox.y0, w: w.bbox.x1 - w.bbox.x0, h: w.bbox.y1 - w.bbox.y0 }));
        if (!line.text.trim()) continue;
        rows.push({ boxes, text: line.text, confidence: Math.round(line.confidence) });
        const scaled = boxes.map((b) => ({ ...b, x: b.x * back, y: b.y * back, w: b.w * back, h: b.h * back }));
        onPage.push({ boxes: scaled, text: line.text, confidence: Math.round(line.confidence) });
      }
    }
  }
  return { text: data.text, lines: pairLabels(rows), confidence: Math.round(data.confidence), rows: onPage };
}
