/**
 * Reads an image's header (never its pixels) to check, at upload, that the file really is the
 * image its signature claims and that its declared size is within the limits.
 */
import sharp from 'sharp';
import { AnalysisInputError, InputErrorCode } from '../analysis/errors.js';
import type { UploadLimits } from './limits.js';

export interface ImageHeader {
  readonly width: number;
  readonly height: number;
}

const FORMAT = { 'image/jpeg': 'jpeg', 'image/png': 'png' } as const;

/**
 * The dimensions a JPEG or PNG declares. Refuses a file whose header does not parse as that
 * format (a JPEG signature followed by HTML, a truncated header) and one that declares more
 * pixels, or a longer side, than the limits.
 */
export async function readImageHeader(bytes: Buffer, mediaType: keyof typeof FORMAT, limits: UploadLimits): Promise<ImageHeader> {
  let width: number | undefined;
  let height: number | undefined;
  let format: string | undefined;
  try {
    // metadata() parses the header only; no pixel limit here, so the declared size is reported
    // and refused below with its own reason.
    ({ width, height, format } = await sharp(bytes, { limitInputPixels: false }).metadata());
  } catch (err: unknown) {
    throw new AnalysisInputError(InputErrorCode.Corrupt, 'The image could not be read.', { cause: err });
  }
  if (format !== FORMAT[mediaType] || !width || !height) {
    throw new AnalysisInputError(InputErrorCode.Corrupt, 'The image could not be read.');
  }
  if (width * height > limits.maxPixels || Math.max(width, height) > limits.maxSide) {
    throw new AnalysisInputError(
      InputErrorCode.TooManyPixels,
      `The image is too large (${width} x ${height} pixels; at most ${limits.maxPixels} pixels and ${limits.maxSide} on a side).`,
    );
  }
  return { width, height };
}
