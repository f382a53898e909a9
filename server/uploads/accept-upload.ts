/**
 * The one door every upload goes through (issue 18, point 2): the customer API's document job,
 * the session's document uploads and its selfie / liveness frames. What can be known without
 * decoding is checked here, before anything is stored: the size, the type by content, the image
 * header's dimensions, and for a PDF its compressed streams, page count and page sizes.
 */
import { fileTypeFromBuffer } from 'file-type';
import { AnalysisInputError, InputErrorCode } from '../analysis/errors.js';
import { readImageHeader } from './image-header.js';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from './limits.js';
import { checkPages, inspectPdf } from './pdf-sandbox.js';
import { scanPdfStreams } from './pdf-streams.js';

/** Media types an upload may have. */
export type UploadMediaType = 'image/jpeg' | 'image/png' | 'application/pdf';

export interface AcceptedUpload {
  readonly mediaType: UploadMediaType;
  /** Lower-case extension matching the content. */
  readonly extension: 'jpg' | 'png' | 'pdf';
  /** Image: its pixels; PDF: page 1 in points. */
  readonly width: number;
  readonly height: number;
  /** PDF only. */
  readonly pageCount?: number;
}

const EXTENSION = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' } as const;

const isUploadType = (mime: string): mime is UploadMediaType => mime in EXTENSION;

/** Throws when the size is not below the limit (spec: "smaller than 10 MB"). */
export function checkSize(bytes: Buffer, limits: UploadLimits = DEFAULT_UPLOAD_LIMITS): void {
  if (bytes.length === 0) throw new AnalysisInputError(InputErrorCode.Empty, 'The file is empty.');
  if (bytes.length >= limits.maxBytes) {
    throw new AnalysisInputError(InputErrorCode.TooLarge, `The file must be smaller than ${limits.maxBytes / 2 ** 20} MB.`);
  }
}

/** The type by content (magic bytes), when it is one of `accepted`. */
export async function sniffUploadType(bytes: Uint8Array, accepted: readonly UploadMediaType[]): Promise<UploadMediaType | null> {
  const found = await fileTypeFromBuffer(bytes);
  return found && isUploadType(found.mime) && accepted.includes(found.mime) ? found.mime : null;
}

const typeNames = (accepted: readonly UploadMediaType[]) => accepted.map((t) => EXTENSION[t].toUpperCase()).join(', ');

/**
 * Accepts an upload or throws {@link AnalysisInputError} saying why not. `inspectPages: false`
 * leaves the PDF page checks to the caller (the analysis, which reads them while rendering).
 */
export async function acceptUpload(
  bytes: Buffer,
  accepted: readonly UploadMediaType[],
  limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
  options: { inspectPages?: boolean } = {},
): Promise<AcceptedUpload> {
  checkSize(bytes, limits);
  const mediaType = await sniffUploadType(bytes, accepted);
  if (!mediaType) throw new AnalysisInputError(InputErrorCode.UnsupportedType, `Only ${typeNames(accepted)} files are accepted.`);
  const extension = EXTENSION[mediaType];
  if (mediaType !== 'application/pdf') {
    const { width, height } = await readImageHeader(bytes, mediaType, limits);
    return { mediaType, extension, width, height };
  }
  await scanPdfStreams(bytes, limits);
  if (options.inspectPages === false) return { mediaType, extension, width: 0, height: 0 };
  const inspected = await inspectPdf(bytes, limits);
  checkPages(inspected, limits);
  const first = inspected.pages[0]!;
  return { mediaType, extension, width: first.width, height: first.height, pageCount: inspected.pageCount };
}
