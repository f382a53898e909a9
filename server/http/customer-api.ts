import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiAuthenticator } from './api-auth.js';

/**
 * The customer API (spec 4-8) as one encapsulated scope: its authentication hook runs for every
 * route registered in it, however the request spelled the path (`/%61pi/users`, `/api/users` and
 * what else the router decodes to the same route). Nothing outside this scope needs a key, and
 * nothing inside can be reached without one. The public OpenAPI document stays outside.
 */
export function customerApi(authenticate: ApiAuthenticator, routes: readonly FastifyPluginAsyncZod[]): FastifyPluginAsync {
  return async (api) => {
    // Every answer carries account data or says something about it, errors included: no cache,
    // shared or private, may keep it (issue 18). Set before the check, so refusals carry it too.
    api.addHook('onRequest', (req, reply) => {
      void reply.header('cache-control', 'no-store');
      return authenticate(req, reply);
    });
    for (const plugin of routes) await api.register(plugin);
  };
}
