/** Where captured images and other binary artefacts live. */
export interface BlobStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes and media type, or undefined when there is no such blob. */
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | undefined>;
  delete(key: string): Promise<void>;
  /** Deletes every blob whose key starts with the prefix (e.g. all of one user's images). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * A URL the browser can fetch the blob from directly for `expiresInSeconds`, for stores that can
   * sign one (S3: a presigned GET); absent for stores served only through our own `/files/` route.
   */
  signedUrl?(key: string, expiresInSeconds: number): Promise<string>;
}

/** Keys are `a/b/c` paths of safe segments; anything else is a programming error. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) || key.split('/').some((s) => s === '..' || s === '.')) {
    throw new Error(`Unsafe blob key: ${key}`);
  }
}
