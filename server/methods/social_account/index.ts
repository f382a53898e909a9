import { oidcProviderAdminRoutes } from '../oidc/admin-routes.js';
import { alwaysRetry } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { oidcCallbackRoutes } from '../oidc/callback-routes.js';
import { deleteUserAccounts } from '../oidc/accounts-repo.js';
import { deleteUserLogins } from '../oidc/logins-repo.js';
import { listProviders } from '../oidc/providers-repo.js';
import { signInRoutes } from '../oidc/routes.js';
import { reopenSignInStep, signInNeeds } from '../oidc/sign-in.js';

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
  adminRoutes: oidcProviderAdminRoutes,
  publicRoutes: oidcCallbackRoutes,
  async view({ ctx, user, verification }, base) {
    const providers = (await listProviders(ctx.db, 'social')).map((p) => ({ id: p.id, name: p.name }));
    return { ...base, key: 'social_account', needs: { providers, ...(await signInNeeds(ctx.db, user.id, verification, 'social_account', ctx.clock.now())) } };
  },
  canRetryRejected: alwaysRetry,
  reopen: reopenSignInStep('social_account'),
  docs: {
    proves:
      "The user signed in, just now, to an account at an OpenID Connect provider the account configured (dashboard or `verity oidc-providers`), through our server: authorization code with PKCE, state, nonce, and the ID token checked (issuer, audience, expiry, signature). `complete` when the provider vouches for an e-mail address (`email_verified`) equal to the user's; `complete_in_review` (remarks say why) when the address differs, is not verified by the provider, or is missing: the account is real, whether it is this user's is for a reviewer. Cancelled, failed or expired sign-ins leave the method `assigned`.",
    attributes: {
      social_provider: "The provider's name as configured (e.g. `Google`).",
      social_issuer: "The ID token's `iss`.",
      social_subject: "The ID token's `sub`: the provider's stable id of the account.",
      social_email: "The account's e-mail as the provider gave it, or null.",
      social_email_verified: '1 when the provider says it verified that e-mail, else 0.',
      social_email_matches: "1 when that e-mail equals the user's (case and surrounding space ignored), else 0.",
      social_account_shared_with:
        'The ids of the other users of this deployment who proved the same provider account (issuer and subject), oldest first; when not empty the method is `complete_in_review` and the remarks say so.',
    },
  },
  async deleteUserData(trx, userId) {
    await deleteUserLogins(trx, userId);
    await deleteUserAccounts(trx, userId);
  },
};
