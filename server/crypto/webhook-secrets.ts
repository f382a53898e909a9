import { SEAL_LABELS, sealerFor } from './seal.js';
import { SECRET_PREFIX } from '../webhooks/signing.js';

/**
 * Signing secrets at rest. HMAC needs the secret itself, so it cannot be hashed like an API key;
 * it is sealed (AES-256-GCM, seal.ts) under a key derived from VERITY_SECRET with a label of
 * its own, and stored as `v1.<iv>.<tag>.<ciphertext>`. The version prefix tells a sealed value from
 * a clear one written before sealing existed (`whsec_…`, sealed by migration 0007) and leaves room
 * for another scheme later.
 */
const LABEL = SEAL_LABELS.webhookSigningSecret;
const VERSION = 'v1.';

/** A stored secret that cannot be opened: never sign with it, say why. */
export class SigningSecretError extends Error {
  override name = 'SigningSecretError';
}

export function isSealedSigningSecret(stored: string): boolean {
  return stored.startsWith(VERSION);
}

export function sealSigningSecret(serverSecret: string, secret: string): string {
  return VERSION + sealerFor(serverSecret, LABEL).seal(secret);
}

/** The clear signing secret of a stored (sealed) one; throws SigningSecretError rather than return garbage. */
export function openSigningSecret(serverSecret: string, stored: string, endpointId?: number): string {
  const which = endpointId === undefined ? 'a webhook endpoint' : `webhook endpoint ${endpointId}`;
  if (!isSealedSigningSecret(stored)) {
    throw new SigningSecretError(`The signing secret of ${which} is stored in clear; run the database migrations (verity migrate) to seal it.`);
  }
  let secret: string;
  try {
    secret = sealerFor(serverSecret, LABEL).open(stored.slice(VERSION.length));
  } catch {
    throw new SigningSecretError(
      `The signing secret of ${which} cannot be decrypted: VERITY_SECRET is not the one it was sealed with (was it changed?). ` +
        'Restore the previous VERITY_SECRET, or rotate the endpoint secret and give receivers the new one.',
    );
  }
  if (!secret.startsWith(SECRET_PREFIX)) throw new SigningSecretError(`The signing secret of ${which} decrypted to something that is not a signing secret.`);
  return secret;
}
