import { createHmac, timingSafeEqual } from 'node:crypto';

export const FILES_PATH = '/files/';

function signature(secret: string, key: string, expires: number): string {
  // A distinct prefix keeps these signatures from ever being valid as magic-link signatures.
  return createHmac('sha256', secret).update(`blob:${key}:${expires}`).digest('hex');
}

/** A short-lived URL of a stored blob, served by our own `/files/` route. */
export function signedBlobUrl(baseUrl: string, secret: string, key: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${baseUrl}${FILES_PATH}${key}?expires=${expires}&signature=${signature(secret, key, expires)}`;
}

/** Checks a `/files/` request: right signature (constant time) and not expired. */
export function checkBlobUrl(secret: string, key: string, query: { expires?: unknown; signature?: unknown }, now: Date): boolean {
  const { expires, signature: given } = query;
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) {
    return false;
  }
  const expected = Buffer.from(signature(secret, key, Number(expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) return false;
  return Number(expires) * 1000 > now.getTime();
}
