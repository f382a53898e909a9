import { createHmac, timingSafeEqual } from 'node:crypto';

export const MAGIC_LINK_PATH = '/security-verify';

export interface MagicLinkParams {
  key: string;
  /** Unix seconds. */
  expires: number;
  email?: string;
  code?: string;
}

/**
 * The signed text is the link's path and query without `signature`, parameters in a fixed order,
 * so the same link verifies under the base URL and under a custom domain.
 */
function signedText(p: MagicLinkParams): string {
  return `${MAGIC_LINK_PATH}?${queryWithoutSignature(p)}`;
}

function queryWithoutSignature(p: MagicLinkParams): string {
  const q = new URLSearchParams();
  q.set('expires', String(p.expires));
  q.set('key', p.key);
  if (p.email !== undefined) q.set('email', p.email);
  if (p.code !== undefined) q.set('code', p.code);
  return q.toString();
}

export function signMagicLink(secret: string, p: MagicLinkParams): string {
  return createHmac('sha256', secret).update(signedText(p)).digest('hex');
}

/** `{base_url}/security-verify?expires=…&key=…&signature=…` (spec 2.5). */
export function buildMagicLink(baseUrl: string, secret: string, p: MagicLinkParams): string {
  return `${baseUrl}${MAGIC_LINK_PATH}?${queryWithoutSignature(p)}&signature=${signMagicLink(secret, p)}`;
}

export type LinkCheck = { ok: true; params: MagicLinkParams } | { ok: false; reason: 'malformed' | 'tampered' | 'expired' };

/** Checks a link's query: signature in constant time first, then expiry. */
export function checkMagicLink(secret: string, query: Record<string, unknown>, now: Date): LinkCheck {
  const { expires, key, signature, email, code } = query;
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof key !== 'string' || !key) {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/i.test(signature)) return { ok: false, reason: 'tampered' };
  const params: MagicLinkParams = { key, expires: Number(expires) };
  if (typeof email === 'string') params.email = email;
  if (typeof code === 'string') params.code = code;
  const expected = Buffer.from(signMagicLink(secret, params), 'hex');
  const given = Buffer.from(signature.toLowerCase(), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'tampered' };
  if (params.expires * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, params };
}

/** Why a link cannot be used: each gets its own page and status, none says whether a user exists. */
export type LinkRefusal = 'invalid' | 'expired' | 'revoked';

/** The query of a full magic link as given to the customer, or null when it is not one of ours. */
export function magicLinkQuery(link: string): Record<string, string | string[]> | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.pathname.endsWith(MAGIC_LINK_PATH)) return null;
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const prior = query[name];
    // A repeated parameter is kept as an array so the check refuses it as malformed.
    query[name] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return query;
}

/** Maps a failed signature/expiry check to the refusal the user sees. */
export function refusalOf(check: Extract<LinkCheck, { ok: false }>): LinkRefusal {
  return check.reason === 'expired' ? 'expired' : 'invalid';
}
