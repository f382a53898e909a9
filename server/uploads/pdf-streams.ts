/**
 * A fast scan of a PDF's raw bytes, before any PDF parser sees them: how much its compressed
 * streams inflate to, measured without keeping the output, and features refused outright.
 *
 * It does not parse the PDF. Every `stream` keyword's data that starts with a zlib header is
 * inflated and counted whatever its dictionary says (pdfjs inflates the same bytes), so a
 * dictionary that hides its filter cannot make a Flate stream look raw; data that starts as a
 * JPEG has its header's dimensions held to the pixel cap (pdfjs decodes it to that many pixels). Compressions whose output
 * this scan does not measure are refused when they appear in the file. A PDF built to slip past
 * it anyway (a filter named through an object stream, say) still meets the memory-bounded
 * sandbox that parses and renders it (pdf-sandbox.ts).
 */
import { createInflate } from 'node:zlib';
import { AnalysisInputError, InputErrorCode } from '../analysis/errors.js';
import { readImageHeader } from './image-header.js';
import type { UploadLimits } from './limits.js';

export interface PdfStreamFacts {
  /** `stream` keywords found. */
  readonly streams: number;
  /** Bytes all zlib streams inflate to together. */
  readonly inflatedBytes: number;
}

/** The start of each stream's data: after `stream` and its end of line (not `endstream`). */
const STREAM_START = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
/** Decoders that expand data and are not measured here (full names and inline-image abbreviations). */
const UNMEASURED = /\/(?:LZWDecode|RunLengthDecode|LZW|RL)(?![A-Za-z0-9])/;
/** Text encodings that can wrap a Flate stream, hiding its zlib header from the scan. */
const TEXT_LAYER = /\/(?:ASCIIHexDecode|ASCII85Decode|AHx|A85)(?![A-Za-z0-9])/;
const FLATE = /\/(?:FlateDecode|Fl)(?![A-Za-z0-9])/;

const unsupported = (message: string) => new AnalysisInputError(InputErrorCode.PdfUnsupported, message);
const tooLarge = (limits: UploadLimits) =>
  new AnalysisInputError(
    InputErrorCode.PdfStreamTooLarge,
    `The PDF's compressed content is too large (at most ${limits.maxPdfStreamBytes / 2 ** 20} MB a stream, ${limits.maxPdfInflatedBytes / 2 ** 20} MB in all).`,
  );

/** True when the two bytes are a zlib header with the deflate method (RFC 1950). */
function isZlibHeader(b0: number | undefined, b1: number | undefined): boolean {
  return b0 !== undefined && b1 !== undefined && (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
}

/**
 * Inflates from `start` until the zlib stream ends (trailing bytes are ignored, as a decoder
 * would), an error, or `ceiling` bytes of output; resolves with the bytes counted.
 */
function inflatedSize(bytes: Buffer, start: number, ceiling: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = createInflate();
    let count = 0;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      resolve(count);
    };
    inflate.on('data', (chunk: Buffer) => {
      count += chunk.length;
      if (count > ceiling) finish();
    });
    // A corrupt stream decodes to what came before the error, in pdfjs too.
    inflate.on('error', finish);
    inflate.on('end', finish);
    inflate.on('close', finish);
    inflate.end(bytes.subarray(start));
  });
}

function endOfStream(text: string, start: number): number {
  const end = text.indexOf('endstream', start);
  return end < 0 ? text.length : end;
}

/** A JPEG image in the PDF declaring too many pixels is refused; one that does not parse is left to the parser. */
async function checkEmbeddedJpeg(jpeg: Buffer, limits: UploadLimits): Promise<void> {
  try {
    await readImageHeader(jpeg, 'image/jpeg', limits);
  } catch (err: unknown) {
    if (err instanceof AnalysisInputError && err.code === InputErrorCode.TooManyPixels) throw err;
  }
}

/** Scans the PDF and throws {@link AnalysisInputError} when it breaks the limits. */
export async function scanPdfStreams(bytes: Buffer, limits: UploadLimits): Promise<PdfStreamFacts> {
  const text = bytes.toString('latin1');
  if (/\/Encrypt(?![A-Za-z0-9])/.test(text)) throw unsupported('Encrypted PDFs are not accepted.');
  if (UNMEASURED.test(text)) throw unsupported('PDFs compressed with LZW or run-length encoding are not accepted.');
  if (TEXT_LAYER.test(text) && FLATE.test(text)) throw unsupported('PDFs with text-encoded compressed streams are not accepted.');
  let streams = 0;
  let total = 0;
  for (const match of text.matchAll(STREAM_START)) {
    streams++;
    if (streams > limits.maxPdfStreams) throw unsupported(`The PDF has more than ${limits.maxPdfStreams} streams.`);
    const start = match.index + match[0].length;
    if (bytes[start] === 0xff && bytes[start + 1] === 0xd8 && bytes[start + 2] === 0xff) {
      await checkEmbeddedJpeg(bytes.subarray(start, endOfStream(text, start)), limits);
      continue;
    }
    if (!isZlibHeader(bytes[start], bytes[start + 1])) continue;
    const size = await inflatedSize(bytes, start, Math.min(limits.maxPdfStreamBytes, limits.maxPdfInflatedBytes - total));
    if (size > limits.maxPdfStreamBytes) throw tooLarge(limits);
    total += size;
    if (total > limits.maxPdfInflatedBytes) throw tooLarge(limits);
  }
  return { streams, inflatedBytes: total };
}
