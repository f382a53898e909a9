import { VerificationStatus } from '../../domain/catalogue.js';
import { reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { deletePasskeyData, findCredentials } from './repo.js';
import { attemptsLeft, triesUsed } from './rules.js';
import { biometricIdRoutes } from './routes.js';
import { deploymentRelyingParty, passkeyState } from './use-cases.js';

/**
 * Biometric ID (spec method 13): a platform passkey through WebAuthn, with user verification (the
 * device's fingerprint, face or PIN) required. The first visit registers one (its attestation
 * recorded); when the method is assigned again, an assertion by that passkey proves possession.
 * Not a camera capture: no face leaves the device, so no biometric consent screen.
 */
export const biometricIdMethod: ServerMethod = {
  key: 'biometric_id',
  methodIds: [13],
  permissions: ['publickey-credentials-create', 'publickey-credentials-get'],
  routes: biometricIdRoutes,
  async view({ ctx, user, verification }, base) {
    const { rpId } = await deploymentRelyingParty(ctx);
    const credentials = await findCredentials(ctx.db, user.id, rpId);
    const state = await passkeyState.read(ctx.db, user.id);
    return {
      ...base,
      key: 'biometric_id',
      needs: {
        ceremony: credentials.length > 0 ? 'assert' : 'register',
        rp_id: rpId,
        attempts_left: verification.status === VerificationStatus.rejected ? 0 : attemptsLeft(triesUsed(state)),
      },
    };
  },
  // A registration that failed 5 times may start over (nothing was proven, and a passkey cannot be
  // guessed); a failed proof by a registered passkey is for the customer or an operator to reset.
  async canRetryRejected(ctx, userId) {
    const { rpId } = await deploymentRelyingParty(ctx);
    return (await findCredentials(ctx.db, userId, rpId)).length === 0;
  },
  // Its tries come back with the reopened method (`triesUsed` reads a locked state on an open method as unused).
  reopen: reopenVerification,
  deleteUserData: deletePasskeyData,
};
