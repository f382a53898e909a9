/**
 * Full-document OCR with tesseract.js (LSTM engine, English data from
 * `@tesseract.js-data/eng`). The text feeds `dlp_analysis`, `doc_type` and the printed-field
 * reader for documents without a barcode or MRZ.
 */
import sharp from 'sharp';
import { getTesseract } from '../engines.js';
import type { GreyPlane } from '../raster.js';
import { estimateSkew } from './barcode.js';

/** One recognised line of text with tesseract's confidence (0-100). */
export interface OcrLine {
  readonly text: string;
  readonly confidence: number;
}

export interface OcrResult {
  readonly text: string;
  readonly lines: readonly OcrLine[];
  /** Mean word confidence (0-100). */
  readonly confidence: number;
}

/** Longest side the page is OCRed at: enough for ID text, bounded for speed. */
const OCR_SIDE = 1800;

/** Deskews and OCRs a grey page; `deskew: false` reads it as it is (see {@link readPrinted}). */
export async function runOcr(g: GreyPlane, deskew = true): Promise<OcrResult> {
  const angle = deskew ? -estimateSkew(g) : 0;
  let img = sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.byteLength), { raw: { width: g.width, height: g.height, channels: 1 } });
  if (Math.abs(angle) >= 0.3) img = sharp(await img.rotate(angle, { background: '#ffffff' }).png().toBuffer());
  // Small captures (720-1080 px phone uploads) are enlarged: tesseract misreads capitals under
  // ~20 px, which is what a licence's field values are at that size. At most 2x.
  const side = Math.min(OCR_SIDE, 2 * Math.max(g.width, g.height));
  const png = await img.resize({ width: side, height: side, fit: 'inside' }).normalise().png({ compressionLevel: 1 }).toBuffer();
  const worker = await getTesseract('text');
  const { data } = await worker.recognize(png, {}, { text: true, blocks: true });
  const lines: OcrLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        const text = line.text.replace(/\s+/g, ' ').trim();
        if (text) lines.push({ text, confidence: Math.round(line.confidence) });
      }
    }
  }
  return { text: data.text, lines, confidence: Math.round(data.confidence) };
}
