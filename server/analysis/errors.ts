/**
 * Typed errors of the analysis engine. Input problems are the caller's fault and map to a
 * `Failed` job with a readable `reason`; anything else is an internal error.
 */

/** Closed set of reasons an input is refused before any analysis runs. */
export const InputErrorCode = {
  Empty: 'empty_file',
  TooLarge: 'file_too_large',
  UnsupportedType: 'unsupported_file_type',
  TooManyPixels: 'too_many_pixels',
  Corrupt: 'corrupt_file',
  /** A PDF with more pages, or larger pages, than the upload limits allow. */
  PdfTooManyPages: 'pdf_too_many_pages',
  PdfPageTooLarge: 'pdf_page_too_large',
  /** A PDF whose compressed streams inflate past the limits (a decompression bomb). */
  PdfStreamTooLarge: 'pdf_stream_too_large',
  /** A PDF feature refused at the door (encryption, compressions whose output is not measured). */
  PdfUnsupported: 'pdf_unsupported',
  /** The PDF process ran out of its memory or time, or crashed. */
  PdfLimitExceeded: 'pdf_limit_exceeded',
} as const;
export type InputErrorCode = (typeof InputErrorCode)[keyof typeof InputErrorCode];

/** Thrown by {@link prepareInput} when the uploaded bytes cannot be analysed. */
export class AnalysisInputError extends Error {
  override readonly name = 'AnalysisInputError';
  readonly code: InputErrorCode;

  constructor(code: InputErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** True when `err` is an {@link AnalysisInputError}. */
export function isAnalysisInputError(err: unknown): err is AnalysisInputError {
  return err instanceof AnalysisInputError;
}
