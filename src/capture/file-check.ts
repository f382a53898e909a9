/**
 * Browser-side checks of an uploaded document file, before it is sent: JPG, PNG or PDF by their
 * magic bytes (not the name or the browser's guess), non-empty and under 10 MB (spec section 8).
 * The server checks again.
 */
import { MAX_UPLOAD_BYTES } from '../api/routes.js';

/** Why a file is refused. */
export type UploadProblem = 'empty' | 'too_large' | 'wrong_type';

/** The outcome of {@link checkUpload}. */
export type UploadCheck = { ok: true; mediaType: 'image/jpeg' | 'image/png' | 'application/pdf' } | { ok: false; problem: UploadProblem };

/** The media type from the first bytes, or null. */
export function sniffMediaType(head: Uint8Array): 'image/jpeg' | 'image/png' | 'application/pdf' | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b)) return 'image/png';
  if (head.length >= 5 && [0x25, 0x50, 0x44, 0x46, 0x2d].every((b, i) => head[i] === b)) return 'application/pdf';
  return null;
}

/** Checks a file picked by the user. */
export async function checkUpload(file: Blob, maxBytes = MAX_UPLOAD_BYTES): Promise<UploadCheck> {
  if (file.size === 0) return { ok: false, problem: 'empty' };
  if (file.size >= maxBytes) return { ok: false, problem: 'too_large' };
  const mediaType = sniffMediaType(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  return mediaType ? { ok: true, mediaType } : { ok: false, problem: 'wrong_type' };
}
