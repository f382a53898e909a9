import { sealerFor } from '../crypto/seal.js';

/**
 * One-time codes travel to the notifier inside a durable job. They are sealed (AES-256-GCM with a
 * key derived from the server secret, see crypto/seal.ts) so the job table never holds a usable
 * code in clear text. The label is unchanged since the first release: codes in flight and the
 * admins' TOTP secrets sealed with it keep opening.
 */
const LABEL = 'notify-seal';

export function seal(secret: string, text: string): string {
  return sealerFor(secret, LABEL).seal(text);
}

/** The sealed text, or throws when it was altered or sealed under another secret. */
export function unseal(secret: string, sealed: string): string {
  return sealerFor(secret, LABEL).open(sealed);
}
