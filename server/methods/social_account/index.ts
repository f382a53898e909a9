import { alwaysRetry } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { oidcCallbackRoutes } from '../oidc/callback-routes.js';
import { deleteStepLogins, deleteUserLogins } from '../oidc/logins-repo.js';
import { listProviders } from '../oidc/providers-repo.js';
import { signInRoutes } from '../oidc/routes.js';
import { signInNeeds } from '../oidc/sign-in.js';
import { reopenVerification } from '../defaults.js';

/**
 * Social Account (spec method 9): the user signs in with an OpenID Connect provider the account
 * configured; the provider's issuer, subject and e-mail claims are recorded and the e-mail compared
 * with the user's (methods/oidc).
 */
export const socialAccountMethod: ServerMethod = {
  key: 'social_account',
  methodIds: [9],
  permissions: [],
  routes: signInRoutes,
  publicRoutes: oidcCallbackRoutes,
  async view({ ctx, user, verification }, base) {
    const providers = (await listProviders(ctx.db, 'social')).map((p) => ({ id: p.id, name: p.name }));
    return { ...base, key: 'social_account', needs: { providers, ...(await signInNeeds(ctx.db, user.id, verification, 'social_account', ctx.clock.now())) } };
  },
  canRetryRejected: alwaysRetry,
  async reopen(trx, ctx, userId, verification) {
    await deleteStepLogins(trx, userId, 'social_account');
    await reopenVerification(trx, ctx, userId, verification);
  },
  deleteUserData: deleteUserLogins,
};
