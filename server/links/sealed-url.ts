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
