import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random bearer token, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 hex: enough for 256-bit random tokens (nothing to brute-force). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** HMAC-SHA256 hex under the server secret, with a label so uses never collide. */
export function keyedHash(secret: string, label: string, text: string): string {
  return createHmac('sha256', secret).update(`${label}\u0000${text}`).digest('hex');
}

/** Constant-time comparison of two strings (false when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
