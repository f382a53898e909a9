/** `hash`, `name`, `original_name`, `extension`, `type`, `size`, `time` of an upload. */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { InputMediaType } from '../input.js';

export interface FileFacts {
  /** SHA-256 of the original bytes, hex. */
  readonly hash: string;
  /** Name under which the stored (metadata-free JPEG) derivative is kept. */
  readonly name: string;
  /** The uploaded file name, cleaned of paths and control characters. */
  readonly original_name: string;
  /** Extension matching the content (not the uploaded name). */
  readonly extension: string;
  /** Media type detected from the content. */
  readonly type: InputMediaType;
  readonly size: number;
  /** Unix seconds when the upload was received. */
  readonly time: number;
}

/** Removes directories, control and bidi characters; caps the length. */
export function cleanFileName(name: string | undefined): string {
  const base = basename((name ?? '').replace(/\\/g, '/'));
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  return (clean || 'upload').slice(0, 255);
}

export function fileFacts(original: Buffer, mediaType: InputMediaType, extension: string, originalName: string | undefined, receivedAt: Date): FileFacts {
  const hash = createHash('sha256').update(original).digest('hex');
  return {
    hash,
    name: `${hash}.jpg`,
    original_name: cleanFileName(originalName),
    extension,
    type: mediaType,
    size: original.length,
    time: Math.floor(receivedAt.getTime() / 1000),
  };
}
