import { createHmac, randomBytes } from 'node:crypto';

/** Prefix of signing secrets; the Standard Webhooks format (`whsec_` + base64 key bytes). */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes (spec asks >= 24), shown once and on explicit reveal. */
export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The spec's `Signature` header (6.4): hex HMAC-SHA256 of the raw body keyed with the signing
 * secret as the receiver has it (the whole text, as the reference handlers pass it to their HMAC).
 */
export function specSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/** The key bytes of a Standard Webhooks secret: base64 after the `whsec_` prefix. */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** One `v1,<base64>` signature over `id.timestamp.body` (Standard Webhooks). */
export function standardSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', standardKey(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

export interface SignedHeaders {
  'content-type': string;
  'user-agent': string;
  signature: string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Every signature header of one attempt. `secrets` is newest first: the spec's single `Signature`
 * uses the newest; `webhook-signature` lists one signature per secret (space separated), so a
 * receiver still holding the previous secret keeps verifying during a rotation's overlap window.
 */
export function signedHeaders(input: {
  secrets: readonly string[];
  eventId: string;
  timestampSeconds: number;
  body: string;
  userAgent: string;
}): SignedHeaders {
  const [newest] = input.secrets;
  if (!newest) throw new Error('signedHeaders: an endpoint always has a secret');
  return {
    'content-type': 'application/json',
    'user-agent': input.userAgent,
    signature: specSignature(newest, input.body),
    'webhook-id': input.eventId,
    'webhook-timestamp': String(input.timestampSeconds),
    'webhook-signature': input.secrets.map((s) => standardSignature(s, input.eventId, input.timestampSeconds, input.body)).join(' '),
  };
}
