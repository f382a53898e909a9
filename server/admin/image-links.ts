import { createHmac } from 'node:crypto';
import { safeEqual } from '../crypto/tokens.js';

/** Lifetime of a captured-image URL handed to the dashboard. */
export const IMAGE_URL_SECONDS = 300;

function signature(secret: string, uploadId: string, expires: number): string {
  return createHmac('sha256', secret).update(`verity:admin-image\u0000${uploadId}\u0000${expires}`).digest('hex');
}

/** A short-lived signed path for one captured image (`/admin/api/images/<id>?expires=&sig=`). */
export function signedImagePath(secret: string, uploadId: string, now: Date, seconds = IMAGE_URL_SECONDS): string {
  const expires = Math.floor(now.getTime() / 1000) + seconds;
  return `/admin/api/images/${encodeURIComponent(uploadId)}?expires=${expires}&sig=${signature(secret, uploadId, expires)}`;
}

/** Whether a signed image path's parameters are genuine and unexpired (constant-time compare). */
export function checkImageSignature(secret: string, uploadId: string, expires: number, sig: string, now: Date): 'ok' | 'expired' | 'invalid' {
  if (!safeEqual(signature(secret, uploadId, expires), sig)) return 'invalid';
  return expires * 1000 <= now.getTime() ? 'expired' : 'ok';
}
