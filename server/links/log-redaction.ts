import { canonicalPath } from '../http/canonical-path.js';
import { MAGIC_LINK_PATH } from './magic-link.js';

/** Users by reference id (spec 4.4): the id is whatever the customer chose. */
const REFERENCE_PATH = '/api/users/ref/';

/** Query parameters whose values say nothing about a person and carry no credential. */
const PLAIN_PARAMETERS = new Set(['page', 'per_page', 'sort']);

/**
 * Request URLs as they may appear in logs. A magic link's query (key and signature), a hand-off
 * token and a short-link code are bearer credentials, a reference id may be anything the customer
 * chose (an e-mail address, say), and query values carry searches, e-mail filters and file
 * signatures: none of them reach a log line. Query parameter names stay, and the values of the
 * paging and sorting ones. Paths are recognised by their canonical form, as the router matches
 * them: `/%61pi/users/ref/uma@beta.test` is a reference id too.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const canonical = canonicalPath(path);
  if (canonical === MAGIC_LINK_PATH || canonical.endsWith(MAGIC_LINK_PATH)) return q < 0 ? path : `${path}?[redacted]`;
  if (canonical.startsWith('/l/')) return '/l/[redacted]';
  const shownPath = canonical.startsWith(REFERENCE_PATH) ? `${REFERENCE_PATH}[redacted]` : path;
  if (q < 0) return shownPath;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      return PLAIN_PARAMETERS.has(name) ? pair : `${name}=[redacted]`;
    })
    .join('&');
  return `${shownPath}?${query}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number } | null;
}

/** Fastify's request log serializer with {@link redactUrl} applied (the fields pino's default logs). */
export function requestLogSerializer(req: LoggedRequest): Record<string, unknown> {
  return { method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
