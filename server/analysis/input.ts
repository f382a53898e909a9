/**
 * Input checking and normalisation (issue #6, "Input and safety").
 *
 * - The type is decided by content (magic bytes via file-type), never by name or Content-Type.
 * - The upload door's checks run again here (server/uploads/accept-upload.ts): size below 10 MB
 *   (spec section 8), JPEG, PNG or PDF, image header within the pixel cap, PDF streams within
 *   their inflate limits; sharp's `limitInputPixels` guards the decode as well.
 * - PDFs are rendered page 1 to an image with pdfjs-dist in a memory- and time-bounded child
 *   process (server/uploads/pdf-sandbox.ts), which also checks the page count and sizes.
 * - EXIF is read from the original bytes; the orientation is applied; every derivative is
 *   re-encoded without metadata.
 */
import exifr from 'exifr';
import sharp from 'sharp';
import { acceptUpload, sniffUploadType } from '../uploads/accept-upload.js';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from '../uploads/limits.js';
import { renderPdfFirstPage } from '../uploads/pdf-sandbox.js';
import { AnalysisInputError, InputErrorCode } from './errors.js';
import { rasterFrom, sharpFromRaster, type Raster } from './raster.js';

/** Media types accepted for analysis. */
export type InputMediaType = 'image/jpeg' | 'image/png' | 'application/pdf';

/** Limits applied to every input: the upload limits, and the size of the raster kept for analysis. */
export interface InputLimits extends UploadLimits {
  /** Longest side of the working raster kept for analysis. */
  readonly maxWorkingSide: number;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = { ...DEFAULT_UPLOAD_LIMITS, maxWorkingSide: 4096 };

const ANALYSED_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;

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
export function sniffMediaType(bytes: Uint8Array): Promise<InputMediaType | null> {
  return sniffUploadType(bytes, ANALYSED_TYPES);
}

/**
 * Checks and decodes an upload. Throws {@link AnalysisInputError} for anything that must not be
 * analysed (empty, too big, wrong type by content, too many pixels, a PDF past its limits,
 * undecodable).
 */
export async function prepareInput(bytes: Buffer, limits: InputLimits = DEFAULT_INPUT_LIMITS): Promise<PreparedInput> {
  const prepared = await prepareInputLater(bytes, limits);
  return { ...prepared, derivative: await prepared.derivative };
}

/** A {@link PreparedInput} whose derivative is still being encoded. */
export interface PreparedInputLater extends Omit<PreparedInput, 'derivative'> {
  readonly derivative: Promise<Buffer>;
}

/**
 * {@link prepareInput} without waiting for the derivative's JPEG encoding (~0.2 s of CPU on a
 * 12 MP photo): the document pipeline needs it only in its result, and the encoding runs on
 * sharp's threads while the analysis goes on (docs/performance.md, 2026-11-29 evening).
 */
export async function prepareInputLater(bytes: Buffer, limits: InputLimits = DEFAULT_INPUT_LIMITS): Promise<PreparedInputLater> {
  // Files stored before the door had these checks, or by another path, meet them here too; the
  // PDF page checks run in the sandbox that renders it.
  const { mediaType } = await acceptUpload(bytes, ANALYSED_TYPES, limits, { inspectPages: false });
  const exif = mediaType === 'application/pdf' ? null : await readExif(bytes);
  const decoded = mediaType === 'application/pdf' ? await renderPdf(bytes, limits) : await decodeImage(bytes, limits);
  const derivative = sharpFromRaster(decoded).jpeg({ quality: 90, mozjpeg: false }).toBuffer(); // sharp writes no metadata unless asked to (withMetadata/keepExif): stripped.
  // Handled here too: a job that ends before awaiting it (an input refused below) leaves no unhandled rejection.
  derivative.catch(() => undefined);
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

/** Renders page 1 of a PDF in the memory-bounded sandbox into an RGB raster. */
async function renderPdf(bytes: Buffer, limits: InputLimits): Promise<Raster> {
  const png = await renderPdfFirstPage(bytes, limits);
  try {
    return await rasterFrom(sharp(png, { limitInputPixels: limits.maxPixels }));
  } catch (err: unknown) {
    throw new AnalysisInputError(InputErrorCode.Corrupt, 'The PDF could not be rendered.', { cause: err });
  }
}
