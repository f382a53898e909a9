import type { FastifyRequest } from 'fastify';
import { errors } from '../errors.js';

/**
 * The spec asks clients to send `Accept: application/json` on some routes. A missing header is
 * taken as "anything"; a header that rules JSON out gets 406 in the spec's error shape.
 */
export function requireJsonAccept(req: FastifyRequest): void {
  const accept = req.headers.accept;
  if (!accept) return;
  if (/application\/json|application\/\*|\*\/\*/i.test(accept)) return;
  throw errors.protocol('This endpoint only answers with application/json.', 406);
}
