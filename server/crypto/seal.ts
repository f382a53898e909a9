import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Sealing: AES-256-GCM with a key derived from the server secret (VERITY_SECRET), for values the
 * server must read back but must not keep in clear (one-time codes in jobs, TOTP secrets, webhook
 * signing secrets). Each use has its own label ({@link SEAL_LABELS}), so a value sealed for one
 * purpose never opens as another: the key is SHA-256 over `verity:<label>:<secret>` (a
 * domain-separated hash; labels are fixed constants without `:`).
 *
 * A sealed value is `iv.tag.ciphertext`, each part base64url. GCM's tag makes any change, or a key
 * derived from another secret, fail to open instead of yielding garbage.
 */
export interface Sealer {
  seal(text: string): string;
  /** The sealed text; throws when it was altered, malformed, or sealed under another secret or label. */
  open(sealed: string): string;
}

/** One label per use; a label is never reused or changed without a migration that re-seals. */
export const SEAL_LABELS = {
  /** One-time codes inside notify jobs (unchanged since the first release: codes in flight keep opening). */
  notifyCode: 'notify-seal',
  /** The admins' TOTP secrets (sealed under notifyCode before migration 0016). */
  adminTotpSecret: 'admin-totp-secret',
  /** Webhook signing secrets (crypto/webhook-secrets.ts). */
  webhookSigningSecret: 'webhook-signing-secret',
  /** Short links' target URLs (links/short-links.ts, migration 0017). */
  shortLinkUrl: 'short-link-url',
  /** OpenID Connect providers' client secrets (methods/oidc, migration 0019). */
  oidcClientSecret: 'oidc-client-secret',
  /** A sign-in's PKCE verifier and nonce while the user is at the provider (methods/oidc). */
  oidcLogin: 'oidc-login',
  /** End users' authenticator secrets of the Two-Step method (methods/two_step, migration 0018). */
  twoStepTotpSecret: 'two-step-totp-secret',
  /** The choices of a user's multiple-choice knowledge facts (methods/knowledge/facts.ts): they hold the right answer. */
  knowledgeChoices: 'knowledge-choices',
  /** A Bank payout instruction (the two deposits' amounts and the full account) in its job and until paid (methods/bank, migration 0023). */
  bankPayout: 'bank-payout',
  /** Face descriptors kept for duplicate detection (server/duplicates, migration 0031). */
  faceVector: 'face-vector',
  /** Not a seal: the HMAC key of document-number digests for duplicate detection (server/duplicates). */
  documentDigest: 'document-digest',
} as const;

export type SealLabel = (typeof SEAL_LABELS)[keyof typeof SEAL_LABELS];

export function sealKey(secret: string, label: SealLabel): Buffer {
  if (label.includes(':')) throw new Error('seal labels must not contain ":"');
  return createHash('sha256').update(`verity:${label}:${secret}`).digest();
}

export function sealerFor(secret: string, label: SealLabel): Sealer {
  const key = sealKey(secret, label);
  return {
    seal(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
    },
    open(sealed) {
      const parts = sealed.split('.');
      if (parts.length !== 3) throw new Error('malformed sealed value');
      const [iv, tag, body] = parts.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
      if (iv.length !== 12 || tag.length !== 16) throw new Error('malformed sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}

/** Seals a one-time code for its trip through the notify job table. */
export function sealNotifyCode(secret: string, code: string): string {
  return sealerFor(secret, SEAL_LABELS.notifyCode).seal(code);
}

/** The code sealed by {@link sealNotifyCode}; throws when it was altered or sealed under another secret. */
export function openNotifyCode(secret: string, sealed: string): string {
  return sealerFor(secret, SEAL_LABELS.notifyCode).open(sealed);
}

/** Seals an admin's TOTP secret for the admin_totp table. */
export function sealTotpSecret(secret: string, totpSecret: string): string {
  return sealerFor(secret, SEAL_LABELS.adminTotpSecret).seal(totpSecret);
}

/** The TOTP secret sealed by {@link sealTotpSecret}; throws when it does not open. */
export function openTotpSecret(secret: string, sealed: string): string {
  return sealerFor(secret, SEAL_LABELS.adminTotpSecret).open(sealed);
}
