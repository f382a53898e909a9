import type { FastifyRequest } from 'fastify';
import { sessionErrors } from '../../errors.js';
import type { Authenticated } from '../../session/sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The end-user session of a `/session/*` call (after authentication). */
    endUser?: Authenticated;
  }
}

/** A request header as one string, or undefined. */
export function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
}

/** The authenticated session of a request (set by the session scope's preHandler). */
export function who(req: FastifyRequest): Authenticated {
  if (!req.endUser) throw sessionErrors.auth();
  return req.endUser;
}

/** The browser's `Accept-Language`, for messages sent on the user's behalf. */
export function acceptLanguage(req: FastifyRequest): string | null {
  return header(req, 'accept-language') ?? null;
}
