/**
 * Reads a payment card on the device and blacks its number out (Secure Card): tesseract.js runs
 * in a worker with its engine and English model served by our own server (`/web/vendor/tesseract/`,
 * copied from the npm packages at build time), never a CDN. The full number exists only in this
 * page's memory; what leaves it is the masked picture and the reading without the number.
 */
import type { SecureCardReading } from '../api/methods/secure_card.js';
import { readCardText, type CardText, type OcrLine, type TextBox } from './card-text.js';

/** Where the OCR's worker script, engine and model are served. */
export interface OcrAssets {
  workerPath: string;
  corePath: string;
  langPath: string;
}

/** The OCR assets under the widget's vendor base (`…/web/vendor/`). */
export function ocrAssets(assetBase: string): OcrAssets {
  const base = new URL('tesseract/', new URL(assetBase, document.baseURI));
  return { workerPath: new URL('worker.min.js', base).href, corePath: new URL('core/', base).href, langPath: new URL('lang', base).href };
}

/** What one picture gave: the reading to send, the masked picture (null when no number was found). */
export interface CardScan {
  reading: SecureCardReading;
  masked: Blob | null;
  /** The full reading, for this page only (tests, the review screen's last four). */
  text: CardText;
}

/** OCR works best on text at least this many pixels across the card. */
const OCR_WIDTH = 1400;

type TesseractWorker = Awaited<ReturnType<(typeof import('tesseract.js'))['createWorker']>>;

/** The card reader: load once per step, `read` each picture, `close` when the step leaves. */
export class CardReader {
  private constructor(private readonly worker: TesseractWorker) {}

  static async load(assets: OcrAssets): Promise<CardReader> {
    const { default: Tesseract } = await import('tesseract.js/dist/tesseract.esm.min.js');
    const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
      workerPath: assets.workerPath,
      corePath: assets.corePath,
      langPath: assets.langPath,
      gzip: true,
      // No copy of the model in IndexedDB: nothing of the step outlives the page.
      cacheMethod: 'none',
      workerBlobURL: true,
    });
    await worker.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.SPARSE_TEXT, preserve_interword_spaces: '1' });
    return new CardReader(worker);
  }

  /** Reads the card on `image` and returns the reading and the picture with the number blacked out. */
  async read(image: Blob): Promise<CardScan> {
    const bitmap = await createImageBitmap(image);
    const scale = Math.max(1, OCR_WIDTH / bitmap.width);
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const result = await this.worker.recognize(canvas, {}, { blocks: true, text: false });
    const lines: OcrLine[] = (result.data.blocks ?? []).flatMap((b) =>
      b.paragraphs.flatMap((p) => p.lines.map((l) => ({ bbox: l.bbox, words: l.words.map((w) => ({ text: w.text, bbox: w.bbox })) }))),
    );
    const text = readCardText(lines);
    const masked = text.number ? await maskNumber(canvas, text.numberBoxes) : null;
    return { reading: toReading(text), masked, text };
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** The reading sent to the server: never the number, only its last four digits and what it says. */
export function toReading(text: CardText): SecureCardReading {
  const number = text.number;
  return {
    number_read: number !== null,
    last4: number ? number.slice(-4) : null,
    pan_length: number ? number.length : null,
    brand: text.brand,
    luhn_valid: text.luhnValid,
    expiry_month: text.expiryMonth,
    expiry_year: text.expiryYear,
    cardholder_name: text.cardholderName,
  };
}

/**
 * Blacks out the number's line across the whole card (a band a little taller than the line, so a
 * digit the OCR split off or missed on that line goes too) and encodes the picture as JPEG.
 */
export async function maskNumber(canvas: HTMLCanvasElement, boxes: readonly TextBox[]): Promise<Blob> {
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#000';
  for (const box of boxes) {
    const pad = Math.round((box.y1 - box.y0) * 0.45);
    ctx.fillRect(0, Math.max(0, box.y0 - pad), canvas.width, box.y1 - box.y0 + 2 * pad);
  }
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
  if (!blob) throw new Error('the masked picture could not be encoded');
  return blob;
}
