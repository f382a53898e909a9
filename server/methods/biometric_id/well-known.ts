import type { MethodRoutes } from '../method.js';
import { deploymentRelyingParty } from './use-cases.js';

/**
 * `GET /.well-known/webauthn`: the related origins of the relying party (WebAuthn Level 3). A
 * browser on a customer's page whose host is not under the rp id fetches this from the rp id's
 * host before it lets inline `<verify-flow>` create or use the passkey there. Public by nature:
 * it lists the origins the account already lets embed the flow.
 */
export const webauthnWellKnownRoutes: MethodRoutes = (kit) => async (app) => {
  app.get('/.well-known/webauthn', { schema: { hide: true } }, async (_req, reply) => {
    const { origins } = await deploymentRelyingParty(kit.ctx);
    return reply.header('cache-control', 'public, max-age=300').type('application/json; charset=utf-8').send({ origins });
  });
};
