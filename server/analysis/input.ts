/**
 * Input checking and normalisation (issue #6, "Input and safety").
 *
 * - The type is decided by content (magic bytes via file-type), never by name or Content-Type.
 * - Only JPEG, PNG and PDF below 10 MB are accepted (spec section 8).
 * - Decompression bombs are refused by sharp's `limitInputPixels`.
 * - PDFs are rendered page 1 to an image with pdfjs-dist (`isEvalSupported: false`, its own
 *   canvas factory).
 * - EXIF is read from the original bytes; the orientation is applied; every derivative is
 *   re-encoded without metadata.
 */
import exifr from 'exifr';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AnalysisInputError, InputErrorCode } from './errors.js';
import { rasterFrom, sharpFromRaster, type Raster } from './raster.js';

/** Media types accepted for analysis. */
export type InputMediaType = 'image/jpeg' | 'image/png' | 'application/pdf';

/** Limits applied to every input; defaults follow the spec (< 10 MB) and a 50 MP pixel cap. */
export interface InputLimits {
  /** Largest accepted upload in bytes (exclusive). */
  readonly maxBytes: number;
  /** Largest accepted decoded image, in pixels (sharp `limitInputPixels`). */
  readonly maxPixels: number;
  /** Longest side of the working raster kept for analysis. */
  readonly maxWorkingSide: number;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 50_000_000,
  maxWorkingSide: 4096,
};

/** EXIF tags as exifr returns them (scalars, dates, arrays). */
export type ExifTags = Record<string, unknown>;

/** The decoded, oriented and checked upload. */
export interface PreparedInput {
  readonly mediaType: InputMediaType;
  /** Lower-case extension matching the content (`jpg`, `png`, `pdf`). */
  readonly extension: 'jpg' | 'png' | 'pdf';
  /** The original bytes, untouched (hashing, EXIF). */
  readonly original: Buffer;
  /** EXIF read from the original bytes, or null when there is none. */
  readonly exif: ExifTags | null;
  /** Oriented RGB pixels (PDF: page 1 rendered), longest side capped by `maxWorkingSide`. */
  readonly raster: Raster;
  /** Metadata-free JPEG of the oriented image: the only bytes that should be stored. */
  readonly derivative: Buffer;
  /** Width and height of the decoded (oriented) image before any working downscale. */
  readonly decodedWidth: number;
  readonly decodedHeight: number;
}

const EXTENSIONS: Record<InputMediaType, PreparedInput['extension']> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'application/pdf': 'pdf',
};

/** Detects the media type from the content alone; null when it is not one we accept. */
export async function sniffMediaType(bytes: Uint8Array): Promise<InputMediaType | null> {
  const found = await fileTypeFromBuffer(bytes);
  if (!found) return null;
  if (found.mime === 'image/jpeg' || found.mime === 'image/png' || found.mime === 'application/pdf') {
    return found.mime;
  }
  return null;
}

/**
 * Checks and decodes an upload. Throws {@link AnalysisInputError} for anything that must not be
 * analysed (empty, too big, wrong type by content, too many pixels, undecodable).
 */
export async function prepareInput(bytes: Buffer, limits: InputLimits = DEFAULT_INPUT_LIMITS): Promise<PreparedInput> {
  if (bytes.length === 0) throw new AnalysisInputError(InputErrorCode.Empty, 'The file is empty.');
  if (bytes.length >= limits.maxBytes) {
    throw new AnalysisInputError(InputErrorCode.TooLarge, `The file must be smaller than ${limits.maxBytes} bytes.`);
  }
  const mediaType = await sniffMediaType(bytes);
  if (!mediaType) {
    throw new AnalysisInputError(InputErrorCode.UnsupportedType, 'Only JPG, PNG and PDF files are accepted.');
  }
  const exif = mediaType === 'application/pdf' ? null : await readExif(bytes);
  const decoded = mediaType === 'application/pdf' ? await renderPdfFirstPage(bytes, limits) : await decodeImage(bytes, limits);
  const derivative = await sharpFromRaster(decoded).jpeg({ quality: 90, mozjpeg: false }).toBuffer(); // sharp writes no metadata unless asked to (withMetadata/keepExif): stripped.
  const raster =
    Math.max(decoded.width, decoded.height) > limits.maxWorkingSide
      ? await rasterFrom(sharpFromRaster(decoded).resize({ width: limits.maxWorkingSide, height: limits.maxWorkingSide, fit: 'inside' }))
      : decoded;
  return {
    mediaType,
    extension: EXTENSIONS[mediaType],
    original: bytes,
    exif,
    raster,
    derivative,
    decodedWidth: decoded.width,
    decodedHeight: decoded.height,
  };
}

async function readExif(bytes: Buffer): Promise<ExifTags | null> {
  try {
    const tags: unknown = await exifr.parse(bytes, {
      tiff: true,
      exif: true,
      gps: true,
      ifd1: false,
      interop: false,
      makerNote: false,
      userComment: false,
      xmp: true,
      icc: false,
      iptc: false,
      translateValues: true,
      reviveValues: true,
      mergeOutput: true,
    });
    if (!tags || typeof tags !== 'object') return null;
    return tags as ExifTags;
  } catch {
    // Broken EXIF is not a reason to refuse the image; the derivative drops it anyway.
    return null;
  }
}

async function decodeImage(bytes: Buffer, limits: InputLimits): Promise<Raster> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: limits.maxPixels }).metadata();
    if ((meta.width ?? 0) * (meta.height ?? 0) > limits.maxPixels) {
      throw new AnalysisInputError(InputErrorCode.TooManyPixels, `The image has more than ${limits.maxPixels} pixels.`);
    }
    // `.rotate()` without an angle applies the EXIF orientation.
    return await rasterFrom(sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'error' }).rotate());
  } catch (err: unknown) {
    if (err instanceof AnalysisInputError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(message)) {
      throw new AnalysisInputError(InputErrorCode.TooManyPixels, `The image has more than ${limits.maxPixels} pixels.`, { cause: err });
    }
    throw new AnalysisInputError(InputErrorCode.Corrupt, 'The image could not be decoded.', { cause: err });
  }
}

/** Target longest side of a rendered PDF page. */
const PDF_RENDER_SIDE = 2400;

/** Renders page 1 of a PDF with pdfjs-dist into an RGB raster. */
export async function renderPdfFirstPage(bytes: Buffer, limits: InputLimits): Promise<Raster> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let doc: Awaited<ReturnType<typeof pdfjs.getDocument>['promise']> | undefined;
  try {
    doc = await pdfjs.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: true,
      verbosity: 0,
    }).promise;
    const page = await doc.getPage(1);
    const base = page.getViewport({ scale: 1 });
    let scale = PDF_RENDER_SIDE / Math.max(base.width, base.height);
    if (base.width * base.height * scale * scale > limits.maxPixels) {
      scale = Math.sqrt(limits.maxPixels / (base.width * base.height));
    }
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.ceil(viewport.width));
    const height = Math.max(1, Math.ceil(viewport.height));
    const factory = doc.canvasFactory as PdfCanvasFactory;
    const { canvas, context } = factory.create(width, height);
    // White page background: PDFs are transparent by default.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvasContext: context, viewport, canvas } as unknown as Parameters<typeof page.render>[0]).promise;
    const png = canvas.toBuffer('image/png');
    factory.destroy({ canvas, context });
    return await rasterFrom(sharp(png, { limitInputPixels: limits.maxPixels }));
  } catch (err: unknown) {
    if (err instanceof AnalysisInputError) throw err;
    throw new AnalysisInputError(InputErrorCode.Corrupt, 'The PDF could not be rendered.', { cause: err });
  } finally {
    await doc?.destroy();
  }
}

/** The parts of pdfjs' Node canvas factory (backed by its own @napi-rs/canvas) that we use. */
interface PdfCanvasFactory {
  create(width: number, height: number): { canvas: PdfCanvas; context: PdfContext };
  destroy(pair: { canvas: PdfCanvas; context: PdfContext }): void;
}
interface PdfCanvas {
  toBuffer(mime: 'image/png'): Buffer;
}
interface PdfContext {
  fillStyle: string;
  fillRect(x: number, y: number, w: number, h: number): void;
}
