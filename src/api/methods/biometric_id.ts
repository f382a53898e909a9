/** The Biometric ID method's session contract (`biometric_id`, spec method 13): a platform passkey. */
import * as z from 'zod/mini';
import { methodBase } from './base.js';

/** `register`: the user has no passkey here yet and creates one; `assert`: they prove they still hold it. */
export const PasskeyCeremony = z.enum(['register', 'assert']);
export type PasskeyCeremony = z.infer<typeof PasskeyCeremony>;

/** Needs of the Biometric ID step. */
export const BiometricIdNeeds = z.object({
  /** Which ceremony the next `options` call starts (a user with a passkey proves it by an assertion). */
  ceremony: PasskeyCeremony,
  /**
   * The WebAuthn relying-party id (the host of the deployment's public URL). A page on another
   * host cannot use the passkey: the step offers the hosted page (or another device) instead.
   */
  rp_id: z.string(),
  /** Failed ceremonies the user may still send before the method is rejected (5 at first). */
  attempts_left: z.int(),
});
export type BiometricIdNeeds = z.infer<typeof BiometricIdNeeds>;

export const BiometricIdMethodView = z.object({ ...methodBase, key: z.literal('biometric_id'), needs: BiometricIdNeeds });

/** A base64url string as WebAuthn's JSON encodings carry them, bounded (a real one is far shorter). */
const b64url = z.string().check(z.maxLength(16_384), z.regex(/^[A-Za-z0-9_-]*$/));

/**
 * `POST /session/methods/biometric_id/options` (no body) → 200 {@link PasskeyOptions}: a fresh
 * challenge (single use, 5 minutes, bound to this session) and the options to hand to
 * `navigator.credentials.create()` (`register`) or `.get()` (`assert`) as WebAuthn's JSON form.
 * User verification is required and the authenticator must be a platform one (the device's own
 * fingerprint, face or PIN). Asking again replaces the earlier challenge.
 * 409 `session_method_state_error` when the step is not open; 429 `session_attempts_exceeded` when
 * its tries ran out.
 */
export const PasskeyOptions = z.object({
  ceremony: PasskeyCeremony,
  /** `PublicKeyCredentialCreationOptionsJSON` or `PublicKeyCredentialRequestOptionsJSON`. */
  options: z.looseObject({ challenge: b64url }),
});
export type PasskeyOptions = z.infer<typeof PasskeyOptions>;

/**
 * `POST /session/methods/biometric_id/verify` `{ credential }`: the `PublicKeyCredential` the
 * browser returned, as JSON (what `@simplewebauthn/browser` gives). → 200 `MethodResult` with the
 * method `complete` and its attributes stating what was proved. 410 `session_challenge_expired`
 * when no challenge is pending, it expired, or it was already used (a replay); 422
 * `session_passkey_invalid` with `details.attempts_left` when the response does not verify (wrong
 * origin or rp id, no user verification, a signature or counter that does not check out, a passkey
 * not registered to this user); 429 `session_attempts_exceeded` after the 5th (the method is
 * `rejected`). A cancelled ceremony sends nothing and changes nothing.
 */
export const PasskeyVerifyRequest = z.object({
  credential: z.looseObject({
    id: b64url,
    rawId: b64url,
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: b64url }),
  }),
});
export type PasskeyVerifyRequest = z.infer<typeof PasskeyVerifyRequest>;
