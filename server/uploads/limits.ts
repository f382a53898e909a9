/**
 * The limits every upload is held to at the door (issue 18, point 2), one set for every upload
 * route and for the analysis that reads the stored file later.
 */
import { MAX_PDF_PAGES, MAX_UPLOAD_BYTES, MAX_UPLOAD_PIXELS, MAX_UPLOAD_SIDE } from '../../src/api/routes.js';

export interface UploadLimits {
  /** Largest accepted file in bytes, exclusive: the spec's "smaller than 10 MB" (sections 4.13, 8). */
  readonly maxBytes: number;
  /** Largest image, in pixels, by the dimensions its header declares. */
  readonly maxPixels: number;
  /** Longest image side in pixels (a 1 x 50,000,000 strip is within the pixel cap, not an image). */
  readonly maxSide: number;
  /** Most pages a PDF may have. */
  readonly maxPdfPages: number;
  /** Longest PDF page side in points (1/72 inch). */
  readonly maxPdfPageSide: number;
  /** Most bytes one compressed PDF stream may inflate to. */
  readonly maxPdfStreamBytes: number;
  /** Most bytes all compressed PDF streams of a file may inflate to together. */
  readonly maxPdfInflatedBytes: number;
  /** Most streams a PDF may hold. */
  readonly maxPdfStreams: number;
  /** Data-segment limit (RLIMIT_DATA) of the process that parses or renders a PDF. */
  readonly pdfMemoryBytes: number;
  /** Time after which that process is killed. */
  readonly pdfTimeoutMs: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxBytes: MAX_UPLOAD_BYTES,
  // Shared with the widget, which checks them before uploading.
  maxPixels: MAX_UPLOAD_PIXELS,
  maxSide: MAX_UPLOAD_SIDE,
  maxPdfPages: MAX_PDF_PAGES,
  // 3000 pt is about 106 cm: larger than any identity document or A1 sheet.
  maxPdfPageSide: 3000,
  maxPdfStreamBytes: 64 * 1024 * 1024,
  maxPdfInflatedBytes: 256 * 1024 * 1024,
  maxPdfStreams: 10_000,
  pdfMemoryBytes: 768 * 1024 * 1024,
  pdfTimeoutMs: 30_000,
};
