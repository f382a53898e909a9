/** The Two-Step Authentication method's session contract (`two_step`, spec method 10). */
import * as z from 'zod/mini';
import { isoDateTime, methodBase } from './base.js';

/** How the user receives second-factor codes: an authenticator app (TOTP) or text messages. */
export const TwoStepFactor = z.enum(['totp', 'sms']);
export type TwoStepFactor = z.infer<typeof TwoStepFactor>;

/** Needs of the two-step step. */
export const TwoStepNeeds = z.object({
  /**
   * `enrol`: the user has no second factor yet and sets one up (a new authenticator app, or a
   * phone for SMS when `sms_allowed`). `prove`: the user turned two-step on before (the method was
   * assigned again) and proves they still hold it: a code from it, or one of their recovery codes.
   */
  mode: z.enum(['enrol', 'prove']),
  /** The factor already on, in `prove` mode; null in `enrol` mode. */
  enabled_factor: z.nullable(TwoStepFactor),
  /** True when the account lets users take codes by SMS instead of an authenticator app. */
  sms_allowed: z.boolean(),
  /** Digits in a code (6). */
  code_length: z.int(),
  /** Wrong codes the user may still enter before the method is rejected (5 at first). */
  attempts_left: z.int(),
  /** Unused recovery codes, in `prove` mode with an authenticator app; else 0. */
  recovery_codes_left: z.int(),
  /** The SMS side: where the code goes (masked) and whether one was sent; null before any send. */
  sms: z.nullable(
    z.object({
      destination_masked: z.string(),
      code_sent: z.boolean(),
      resend_available_at: z.nullable(isoDateTime),
    }),
  ),
});
export type TwoStepNeeds = z.infer<typeof TwoStepNeeds>;

export const TwoStepMethodView = z.object({ ...methodBase, key: z.literal('two_step'), needs: TwoStepNeeds });

/**
 * `POST /session/methods/two_step/totp` (no body), in `enrol` mode: a new authenticator secret.
 * → 200 {@link TotpEnrolment}. The secret is shown this once: the server keeps it only sealed and
 * never sends it again; asking again replaces it (the earlier QR code stops working). The set-up
 * must be confirmed within 10 minutes. 409 `session_method_state_error` in `prove` mode.
 */
export const TotpEnrolment = z.object({
  /** `otpauth://totp/…` for the QR code. */
  otpauth_uri: z.string(),
  /** The same secret, base32, for typing into the app by hand. */
  secret: z.string(),
  digits: z.int(),
  /** Seconds per code. */
  period: z.int(),
  /** When this set-up stops accepting its first code. */
  expires_at: isoDateTime,
});
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;

/**
 * `POST /session/methods/two_step/sms/send` `{ phone? }`, when `sms_allowed`: sends a 6-digit code
 * by SMS (10 minutes, single use; a resend after 60 s, 5 an hour). In `enrol` mode `phone` (E.164,
 * or national with the user's own country) names the phone to turn on; in `prove` mode the code
 * goes to the phone already on and `phone` is ignored. → 200 `CodeSentResponse`; 422
 * `api_validation_error` for a number that is not a mobile-capable E.164 number; 429
 * `api_rate_limit_error` with `details.retry_after_seconds` while a resend is not yet allowed; 409
 * `session_method_state_error` when SMS is not allowed.
 */
export const TwoStepSmsRequest = z.object({ phone: z.optional(z.string().check(z.maxLength(32))) });
export type TwoStepSmsRequest = z.infer<typeof TwoStepSmsRequest>;

/**
 * `POST /session/methods/two_step/verify` `{ channel, code }`: `totp` (a code from the app; ±1
 * step of clock drift; a code used once is refused), `sms` (the code sent), or `recovery` (one of
 * the recovery codes, in `prove` mode; each works once). → 200 `TwoStepVerified` (method
 * `complete`; after an authenticator set-up it carries the recovery codes, shown this once).
 * 422 `session_code_invalid` with `details.attempts_left`; 410 `session_code_expired` (set-up or
 * SMS code expired, or the code was already used); 429 `session_attempts_exceeded` after the 5th
 * wrong code (the method is `rejected`); 409 `session_method_state_error` when nothing was set up.
 */
export const TwoStepVerifyRequest = z.object({
  channel: z.enum(['totp', 'sms', 'recovery']),
  /** Digits for `totp` / `sms`; a recovery code as shown (`xxxxx-xxxxx`, any case, dash optional). */
  code: z.string().check(z.minLength(1), z.maxLength(32)),
});
export type TwoStepVerifyRequest = z.infer<typeof TwoStepVerifyRequest>;
