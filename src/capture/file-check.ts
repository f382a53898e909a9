/**
 * Browser-side checks of an uploaded document file, before it is sent, as far as the browser can
 * (issue 24): JPG, PNG or PDF by their magic bytes (not the name or the browser's guess), non-empty
 * and under 10 MB (spec section 8); an image must decode and stay within the server's pixel limits;
 * a PDF must open (its header and page table, read by pdfjs-dist, loaded only when a PDF is
 * picked) and have at most 20 pages. The server checks all of it again.
 */
import { MAX_PDF_PAGES, MAX_UPLOAD_BYTES, MAX_UPLOAD_PIXELS, MAX_UPLOAD_SIDE } from '../api/routes.js';

/** Why a file is refused. */
export type UploadProblem = 'empty' | 'too_large' | 'wrong_type' | 'undecodable' | 'too_many_pixels' | 'too_many_pages';

type UploadMediaType = 'image/jpeg' | 'image/png' | 'application/pdf';

/** The outcome of {@link checkUpload}; `pages` for a PDF that opened. */
export type UploadCheck = { ok: true; mediaType: UploadMediaType; pages?: number } | { ok: false; problem: UploadProblem; pages?: number };

/** The media type from the first bytes, or null. */
export function sniffMediaType(head: Uint8Array): UploadMediaType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b)) return 'image/png';
  if (head.length >= 5 && [0x25, 0x50, 0x44, 0x46, 0x2d].every((b, i) => head[i] === b)) return 'application/pdf';
  return null;
}

/** Decodes the image (all of it, not only its header); its size, or null when it does not decode. */
async function decodedSize(file: Blob): Promise<{ width: number; height: number } | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

/** Opens the PDF with pdfjs-dist (its parser on this thread: no worker file to serve); its page count, or null. */
export async function pdfPageCount(file: Blob): Promise<number | null> {
  // The worker module registers its message handler on globalThis.pdfjsWorker, which pdfjs then
  // uses in place of a worker: nothing is fetched by URL, and the hosted page's CSP holds.
  await import('pdfjs-dist/build/pdf.worker.min.mjs');
  const pdfjs = await import('pdfjs-dist');
  const task = pdfjs.getDocument({
    data: new Uint8Array(await file.arrayBuffer()),
    isEvalSupported: false,
    stopAtErrors: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    return doc.numPages;
  } catch {
    return null;
  } finally {
    await task.destroy();
  }
}

/** Checks a file picked by the user. */
export async function checkUpload(file: Blob, maxBytes = MAX_UPLOAD_BYTES): Promise<UploadCheck> {
  if (file.size === 0) return { ok: false, problem: 'empty' };
  if (file.size >= maxBytes) return { ok: false, problem: 'too_large' };
  const mediaType = sniffMediaType(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  if (!mediaType) return { ok: false, problem: 'wrong_type' };
  if (mediaType === 'application/pdf') {
    const pages = await pdfPageCount(file);
    if (pages === null || pages < 1) return { ok: false, problem: 'undecodable' };
    return pages > MAX_PDF_PAGES ? { ok: false, problem: 'too_many_pages', pages } : { ok: true, mediaType, pages };
  }
  const size = await decodedSize(file);
  if (!size) return { ok: false, problem: 'undecodable' };
  if (size.width * size.height > MAX_UPLOAD_PIXELS || Math.max(size.width, size.height) > MAX_UPLOAD_SIDE) return { ok: false, problem: 'too_many_pixels' };
  return { ok: true, mediaType };
}
