/**
 * The session contract of the methods proven by signing in with an OpenID Connect provider:
 * Social Account (`social_account`, spec id 9) and Payment Account (`payment_account`, spec id 4,
 * which also proves its e-mail by a code).
 *
 * ## The sign-in, through our server
 * 1. `POST /session/methods/{key}/sign-in` `{ provider_id }` → 200 {@link SignInResponse}: a
 *    one-time `url` on our server (`/oidc/begin?t=…`, 10 minutes).
 * 2. The step opens that URL in a new window (a popup on a desktop, a tab on a phone; the same
 *    from the hosted page, from its modal iframe and from `<verify-flow>` inline on a customer
 *    page). `/oidc/begin` binds the sign-in to that browser with an HttpOnly cookie and redirects
 *    to the provider (authorization code, PKCE S256, `state`, `nonce`).
 * 3. The provider sends the browser back to `{base_url}/oidc/callback`, which checks the state,
 *    the browser binding, exchanges the code and checks the ID token (issuer, audience, expiry,
 *    signature, nonce), records the outcome and shows a short page that closes itself.
 * 4. Meanwhile the step reads its view (`GET /session`): `needs.sign_in` goes from `pending` to
 *    `done` or to the failure, and the method's status moves.
 * A top-level redirect is not used: the inline widget would lose its session (it lives in the
 * customer page's memory), and the hosted page would need its bearer link back.
 */
import * as z from 'zod/mini';
import { isoDateTime, methodBase } from './base.js';

/** A provider the user can sign in with (no secret, no URL: the server holds those). */
export const SignInProvider = z.object({ id: z.int(), name: z.string() });
export type SignInProvider = z.infer<typeof SignInProvider>;

/**
 * The step's last sign-in: `none` yet, `pending` (the user is at the provider), `done`, or why it
 * proved nothing: `cancelled` (the user declined at the provider or pressed Cancel),
 * `provider_error` (the provider answered with an error), `invalid_response` (the answer failed a
 * check: state, ID token, nonce), `expired` (not back within 10 minutes).
 */
export const SignInStatus = z.enum(['none', 'pending', 'done', 'cancelled', 'provider_error', 'invalid_response', 'expired']);
export type SignInStatus = z.infer<typeof SignInStatus>;

/** Needs of the Social Account step. */
export const SocialAccountNeeds = z.object({
  /** The account's social sign-in providers (the user picks one); empty when none is configured. */
  providers: z.array(SignInProvider),
  sign_in: SignInStatus,
  /** Sign-ins the user may still start this hour. */
  sign_ins_left: z.int(),
});
export type SocialAccountNeeds = z.infer<typeof SocialAccountNeeds>;
export const SocialAccountMethodView = z.object({ ...methodBase, key: z.literal('social_account'), needs: SocialAccountNeeds });

/** Needs of the Payment Account step: an e-mail code first, then (when configured) a sign-in. */
export const PaymentAccountNeeds = z.object({
  /** The payment account's e-mail, masked, once given (or proven); else null. */
  payment_email_masked: z.nullable(z.string()),
  /** True once the code sent to that address was confirmed. */
  email_verified: z.boolean(),
  code_length: z.int(),
  /** True when a code was sent and has not expired. */
  code_sent: z.boolean(),
  resend_available_at: z.nullable(isoDateTime),
  attempts_left: z.int(),
  /** The payment provider to sign in with after the code, or null when the account has none. */
  provider: z.nullable(SignInProvider),
  sign_in: SignInStatus,
  sign_ins_left: z.int(),
});
export type PaymentAccountNeeds = z.infer<typeof PaymentAccountNeeds>;
export const PaymentAccountMethodView = z.object({ ...methodBase, key: z.literal('payment_account'), needs: PaymentAccountNeeds });

/**
 * `POST /session/methods/{social_account|payment_account}/sign-in` → 200 {@link SignInResponse}.
 * Ends any sign-in of the step still pending. 404 `session_method_not_assigned`;
 * 409 `session_method_state_error` (the step is done, or Payment Account's code is not confirmed
 * yet); 422 `api_validation_error` for a provider that is not one of the step's;
 * 429 `api_rate_limit_error` after 10 sign-ins in an hour; 503 `session_sign_in_unavailable`
 * when the provider cannot be reached.
 */
export const SignInRequest = z.object({ provider_id: z.int().check(z.positive()) });
export type SignInRequest = z.infer<typeof SignInRequest>;
export const SignInResponse = z.object({
  /** Open this in a new window; it works once. */
  url: z.string(),
  expires_at: isoDateTime,
});
export type SignInResponse = z.infer<typeof SignInResponse>;

// `POST /session/methods/{key}/sign-in/cancel` (no body) → 200 `MethodResult`: the pending
// sign-in ends as `cancelled`; a callback for it afterwards changes nothing.

/**
 * `POST /session/methods/payment_account/send` `{ email }` → 200 `CodeSentResponse`: a 6-digit
 * code to the payment account's e-mail (10 minutes, 5 tries, resend after 60 s, as the e-mail
 * step). 422 `api_validation_error` for an address that is not one; 429 `api_rate_limit_error`
 * while resend is not yet allowed.
 * `POST /session/methods/payment_account/verify` `{ code }` (`VerifyCodeRequest`) → 200
 * `MethodResult`: `complete` when no payment provider is configured, else the step stays to do
 * until the sign-in. Errors as the e-mail step's.
 */
export const PaymentEmailRequest = z.object({ email: z.email().check(z.maxLength(254)) });
export type PaymentEmailRequest = z.infer<typeof PaymentEmailRequest>;
