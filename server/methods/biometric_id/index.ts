import { VerificationStatus } from '../../domain/catalogue.js';
import { reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { passkeyEnrolment } from './enrolment.js';
import { deletePasskeyData, findCredentials } from './repo.js';
import { attemptsLeft, triesUsed } from './rules.js';
import { biometricIdRoutes } from './routes.js';
import { deploymentRelyingParty, passkeyState } from './use-cases.js';
import { webauthnWellKnownRoutes } from './well-known.js';

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
  publicRoutes: webauthnWellKnownRoutes,
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
  docs: {
    proves:
      "The user holds a platform passkey (WebAuthn) on their own device and unlocked it with the device's user verification (fingerprint, face or screen lock; required): on a first visit the passkey is created and its attestation recorded; when the method is assigned again, the same passkey signs a fresh single-use challenge and its signature counter must move forward. The relying party is the host of the public URL (the custom domain when set, else `VERITY_BASE_URL`). Only the public key is stored; nothing biometric leaves the device. Five failed ceremonies reject the method.",
    attributes: {
      proof: '`passkey_registered` (a passkey was created) or `passkey_assertion` (a registered passkey signed in); null when rejected.',
      credential_id: "The passkey's credential id (base64url).",
      attestation_format: "The attestation statement's format at registration (`packed`, `tpm`, `apple`, `android-key`, `none`, …).",
      aaguid: "The authenticator model's AAGUID from the attestation (all zeros when the device withholds it).",
      attestation_root_checked:
        "Always false: the attestation's signature is verified, its certificate chain is not checked against a vendor root (no FIDO metadata is fetched).",
      user_verified: 'True: the device verified the user (required).',
      device_type: '`singleDevice` or `multiDevice` (a synced passkey).',
      backed_up: 'Whether the passkey is backed up (synced) by its provider.',
      sign_count: "The authenticator's signature counter after this ceremony (0 when it keeps none).",
      rp_id: 'The relying-party id the passkey belongs to.',
      registered_at: 'When the passkey was registered (`YYYY-MM-DD HH:MM:SS`, UTC).',
      ceremony: 'On rejection: `register` or `assert`.',
      attempts: 'On rejection: the tries used (5).',
    },
  },
  enrolment: passkeyEnrolment,
  async deleteUserData(trx, userId) {
    await deletePasskeyData(trx, userId);
  },
};
