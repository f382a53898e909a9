import { VerificationStatus } from '../../domain/catalogue.js';
import { maskEmail } from '../../session/masking.js';
import { findCode } from '../code/repo.js';
import { CODE_LENGTH, CODE_MAX_ATTEMPTS, nextSendAt } from '../code/rules.js';
import { alwaysRetry, reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { oidcCallbackRoutes } from '../oidc/callback-routes.js';
import { deleteStepLogins } from '../oidc/logins-repo.js';
import { listProviders } from '../oidc/providers-repo.js';
import { signInNeeds } from '../oidc/sign-in.js';
import { paymentRoutes } from './routes.js';
import { currentPaymentState, paymentState } from './state.js';

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
  // two), the flow shows the step as to do.
  async flowStatus(ex, userId, verification) {
    if (verification.status !== VerificationStatus.processing) return verification.status;
    const state = await paymentState.read(ex, userId);
    const provider = (await listProviders(ex, 'payment'))[0];
    return state?.verified_email && provider ? VerificationStatus.assigned : verification.status;
  },
  canRetryRejected: alwaysRetry,
  async reopen(trx, ctx, userId, verification) {
    await paymentState.clear(trx, userId);
    await deleteStepLogins(trx, userId, 'payment_account');
    await reopenVerification(trx, ctx, userId, verification);
  },
  async deleteUserData(trx, userId) {
    await paymentState.clear(trx, userId);
  },
};
