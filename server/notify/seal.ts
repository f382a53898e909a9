import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * One-time codes travel to the notifier inside a durable job. They are sealed (AES-256-GCM with a
 * key derived from the server secret) so the job table never holds a usable code in clear text.
 */
function key(secret: string): Buffer {
  return createHash('sha256').update(`verity:notify-seal:${secret}`).digest();
}

export function seal(secret: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(secret), iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** The sealed text, or throws when it was altered or sealed under another secret. */
export function unseal(secret: string, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !body) throw new Error('malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key(secret), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
