import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Sealing: AES-256-GCM with a key derived from the server secret (VERITY_SECRET), for values the
 * server must read back but must not keep in clear (one-time codes in jobs, TOTP secrets, webhook
 * signing secrets). Each use has its own label, so a value sealed for one purpose never opens as
 * another: the key is SHA-256 over `verity:<label>:<secret>` (a domain-separated hash; labels are
 * fixed constants without `:`).
 *
 * A sealed value is `iv.tag.ciphertext`, each part base64url. GCM's tag makes any change, or a key
 * derived from another secret, fail to open instead of yielding garbage.
 */
export interface Sealer {
  seal(text: string): string;
  /** The sealed text; throws when it was altered, malformed, or sealed under another secret or label. */
  open(sealed: string): string;
}

export function sealKey(secret: string, label: string): Buffer {
  if (label.includes(':')) throw new Error('seal labels must not contain ":"');
  return createHash('sha256').update(`verity:${label}:${secret}`).digest();
}

export function sealerFor(secret: string, label: string): Sealer {
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
