import { randomBytes } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import { keyedHash, safeEqual } from '../../crypto/tokens.js';

/**
 * A browser that signed in to an admin account before (OWASP's "device cookie"): signed with the
 * server secret, naming the admin and a random nonce. Sign-in tries from such a browser skip the
 * account-wide spacing a distributed guess sets off, so the owner's known browser is never slowed
 * by other people's failures; its own failures still count per (account, address) and address.
 */
export const DEVICE_COOKIE = 'verity_admin_device';
/** Sent only to sign-in; kept half a year. */
export const DEVICE_COOKIE_PATH = '/admin/api/session';
export const DEVICE_MAX_AGE_SECONDS = 180 * 24 * 3600;
const LABEL = 'admin-device';

/** A new device cookie value for `adminId`. */
export function newDeviceToken(secret: string, adminId: number): string {
  const claim = `${adminId}.${randomBytes(16).toString('base64url')}`;
  return `${claim}.${keyedHash(secret, LABEL, claim)}`;
}

/** The admin id a request's device cookie was issued to, when it carries a valid one. */
export function deviceAdminId(secret: string, cookieHeader: string | undefined): number | undefined {
  if (!cookieHeader) return undefined;
  const token = fastifyCookie.parse(cookieHeader)[DEVICE_COOKIE];
  if (!token || token.length > 200) return undefined;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([0-9a-f]{64})$/.exec(token);
  if (!match) return undefined;
  const claim = `${match[1]}.${match[2]}`;
  return safeEqual(keyedHash(secret, LABEL, claim), match[3]!) ? Number(match[1]) : undefined;
}
