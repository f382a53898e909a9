import { oidcProviderAdminRoutes } from '../oidc/admin-routes.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { maskEmail } from '../../session/masking.js';
import { findCode } from '../code/repo.js';
import { CODE_LENGTH, CODE_MAX_ATTEMPTS, nextSendAt } from '../code/rules.js';
import { alwaysRetry } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { oidcCallbackRoutes } from '../oidc/callback-routes.js';
import { listProviders } from '../oidc/providers-repo.js';
import { reopenSignInStep, signInNeeds } from '../oidc/sign-in.js';
import { paymentRoutes } from './routes.js';
import { awaitsSignIn, currentPaymentState, paymentState } from './state.js';

/**
 * Payment Account (spec method 4): the payment account's e-mail proven by a code (the e-mail step's
 * machinery, methods/code), then, where the account configures a payment provider, a sign-in with
 * it through the same OpenID Connect path as Social Account (methods/oidc).
 */
export const paymentAccountMethod: ServerMethod = {
  key: 'payment_account',
  methodIds: [4],
  permissions: [],
  routes: paymentRoutes,
  adminRoutes: oidcProviderAdminRoutes,
  publicRoutes: oidcCallbackRoutes,
  async view({ ctx, user, verification }, base) {
    const now = ctx.clock.now();
    const state = await currentPaymentState(ctx.db, user.id, verification);
    const code = await findCode(ctx.db, user.id, 'payment_account');
    const live = code !== undefined && code.used_at === null && code.expires_at > now.toISOString();
    const resendAt = code ? nextSendAt(code, now) : null;
    const provider = (await listProviders(ctx.db, 'payment'))[0];
    const shown = state?.verified_email ?? state?.pending_email ?? null;
    return {
      ...base,
      key: 'payment_account',
      needs: {
        payment_email_masked: shown ? maskEmail(shown) : null,
        email_verified: Boolean(state?.verified_email),
        code_length: CODE_LENGTH,
        code_sent: live,
        resend_available_at: resendAt && resendAt > now ? resendAt.toISOString() : null,
        attempts_left: live ? Math.max(0, CODE_MAX_ATTEMPTS - code.attempts) : CODE_MAX_ATTEMPTS,
        provider: provider ? { id: provider.id, name: provider.name } : null,
        ...(await signInNeeds(ctx.db, user.id, verification, 'payment_account', now)),
      },
    };
  },
  // The code is confirmed but the sign-in is still to do: the row is `processing` (one part of
  // two), the flow shows the step as to do, so `requireOpen` lets the sign-in start and finish.
  // Only that `processing` (`awaitsSignIn`): one the sign-in or an operator left stays processing.
  async flowStatus(ex, userId, verification) {
    if (verification.status !== VerificationStatus.processing) return verification.status;
    const state = await paymentState.read(ex, userId);
    const provider = (await listProviders(ex, 'payment'))[0];
    return awaitsSignIn(state, verification) && provider ? VerificationStatus.assigned : verification.status;
  },
  canRetryRejected: alwaysRetry,
  reopen: reopenSignInStep('payment_account', (trx, userId) => paymentState.clear(trx, userId)),
  docs: {
    proves:
      "The user controls the payment account's e-mail address: they entered it and confirmed the 6-digit code sent there (10 minutes, 5 tries). Where the account configured a payment provider (an OpenID Connect provider marked `payment`), the method is one part of two after the code (`processing`, `verification.in-process`) until the user also signs in to that provider through the same path as Social Account; then `complete` when the provider vouches for the same, verified address, else `complete_in_review`.",
    attributes: {
      payment_email: "The payment account's e-mail address the code proved.",
      payment_email_verified: '1 once the code was confirmed.',
      payment_provider: 'With a payment provider: its name as configured.',
      payment_provider_issuer: "With a payment provider: the ID token's `iss`.",
      payment_provider_subject: "With a payment provider: the ID token's `sub`.",
      payment_provider_email: "With a payment provider: the account's e-mail as the provider gave it, or null.",
      payment_provider_email_verified: 'With a payment provider: 1 when the provider verified that e-mail, else 0.',
      payment_provider_email_matches: 'With a payment provider: 1 when it equals `payment_email`, else 0.',
      payment_provider_shared_with:
        'The ids of the other users of this deployment who proved the same payment provider account, oldest first; when not empty the method is `complete_in_review` and the remarks say so.',
    },
  },
  async deleteUserData(trx, userId) {
    await paymentState.clear(trx, userId);
  },
};
