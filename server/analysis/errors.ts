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
