import type { Executor } from '../store/database.js';
import { SEAL_LABELS, sealerFor } from '../crypto/seal.js';

/**
 * Short links (`/l/<code>`, from verify-url, the dashboard and hand-off) lead to whole bearer URLs:
 * a signed magic link, or a hand-off token the server keeps only hashed. They are stored sealed
 * (AES-256-GCM under a key derived from VERITY_SECRET with this label, see crypto/seal.ts), so the
 * `short_links` table never holds a usable URL: a copy of the database alone opens nothing
 * (issue 18, point 5).
 */
const LABEL = SEAL_LABELS.shortLinkUrl;

/** The stored form of a short link's target. */
export function sealShortLinkUrl(secret: string, url: string): string {
  return sealerFor(secret, LABEL).seal(url);
}

/** The target, or null when the stored value does not open (altered, or sealed under another secret). */
export function openShortLinkUrl(secret: string, sealed: string): string | null {
  try {
    return sealerFor(secret, LABEL).open(sealed);
  } catch {
    return null;
  }
}

export interface NewShortLink {
  code: string;
  userId: number;
  url: string;
  expiresAt: string;
  createdAt: string;
}

/** Saves a short link, its target sealed. */
export async function insertShortLink(ex: Executor, secret: string, link: NewShortLink): Promise<void> {
  await ex
    .insertInto('short_links')
    .values({ code: link.code, user_id: link.userId, sealed_url: sealShortLinkUrl(secret, link.url), expires_at: link.expiresAt, created_at: link.createdAt })
    .execute();
}

/** A short link's target and expiry; `url` is null when its sealed target cannot be opened. */
export async function findShortLink(ex: Executor, secret: string, code: string): Promise<{ url: string | null; expiresAt: string } | undefined> {
  const row = await ex.selectFrom('short_links').select(['sealed_url', 'expires_at']).where('code', '=', code).executeTakeFirst();
  return row ? { url: openShortLinkUrl(secret, row.sealed_url), expiresAt: row.expires_at } : undefined;
}
