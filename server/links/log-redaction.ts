import { MAGIC_LINK_PATH } from './magic-link.js';

/**
 * Request URLs as they may appear in logs: a magic link's query (key and signature), a hand-off
 * token and a short-link code are bearer credentials, so they never reach a log line.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (path === MAGIC_LINK_PATH || path.endsWith(MAGIC_LINK_PATH)) return q < 0 ? path : `${path}?[redacted]`;
  if (path.startsWith('/l/')) return '/l/[redacted]';
  return url;
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
