/**
 * THE end-user session API contract, shared by the widget (`src/`) and the server
 * (`server/http/session`, `server/http/hosted`). One module: zod schemas (zod/mini, so the
 * server's fastify-type-provider-zod can use them as they are and the widget can import types
 * only), the inferred types, and the route paths (re-exported from `routes.ts`).
 *
 * ## Authentication
 * - A session starts with `POST /session/start` from the hosted page (or from `<verify-flow>`
 *   embedded on a customer origin) with the magic link. `GET /security-verify` only shows the
 *   landing page and must not start anything (mail scanners pre-fetch links).
 * - The server answers with an HttpOnly `verity_session` cookie (Secure when https,
 *   SameSite=Lax; `SameSite=None; Secure` is not relied upon) AND a `session_token` in the body.
 *   Every later call authenticates with the cookie or with the header
 *   `X-Verity-Session: <session_token>` (used by `<verify-flow>` on a customer origin, where
 *   third-party cookies are blocked). Sessions expire after 1 h idle and are revocable.
 * - Every state-changing call (POST, DELETE) must carry `X-Verity-CSRF: <csrf_token>`, the token
 *   from the start response and from `GET /session`. A missing or wrong token →
 *   403 `session_csrf_error`. The server also checks `Origin` when present against its own
 *   origin and the account's configured customer origins (the same list as `frame-ancestors`).
 * - Cross-origin calls (embedded `<verify-flow>`): CORS for the configured customer origins only,
 *   `Access-Control-Allow-Headers: Content-Type, X-Verity-Session, X-Verity-CSRF`, and
 *   the client fetches with `credentials: 'same-origin'`, so across origins no cookie is sent and the
 *   token header is what authenticates (`Access-Control-Allow-Credentials` is not needed, and
 *   harmless if sent).
 *
 * ## Errors
 * Every non-2xx answer has the body {@link ErrorBody}: `{ error_type, error_message, errors?,
 * details? }` with `error_type` one of {@link SESSION_ERROR_TYPES}. Status codes used:
 * 400 `api_invalid_error` (malformed body), 401 `session_auth_error` (no/expired/revoked session),
 * 403 `session_csrf_error` / `session_link_invalid` / `session_link_revoked` / `session_consent_required`,
 * 404 `session_method_not_assigned`, 409 `session_method_state_error` / `session_incomplete` /
 * `session_flow_completed`,
 * 503 `session_sign_in_unavailable` (an OpenID Connect provider cannot be reached),
 * 410 `session_link_expired` / `session_code_expired` / `session_challenge_expired` /
 * `session_handoff_invalid`, 413 `session_upload_too_large`,
 * 422 `api_validation_error` (with `errors`) / `session_code_invalid` / `session_knowledge_failed` /
 * `session_location_rejected` / `session_upload_invalid` / `session_passkey_invalid`,
 * 429 `api_rate_limit_error` (with `details.retry_after_seconds` and a `Retry-After` header) /
 * `session_attempts_exceeded`, 500 `api_internal_error`.
 *
 * ## Statuses
 * Method statuses are the spec's verification status keys (section 2.2). The widget treats
 * `complete` and `complete_in_review` as done, `processing` as submitted (waiting for analysis,
 * also done for the flow), `rejected` as failed (retry when `can_retry`), `assigned` and `reset`
 * as to do.
 */
import * as z from 'zod/mini';
import { isoDateTime, methodBase } from './methods/base.js';
import { EmailMethodView, PhoneMethodView } from './methods/code.js';
import { DocumentMethodView } from './methods/document_id.js';
import { LivenessMethodView, SelfieMethodView } from './methods/face.js';
import { GeolocationMethodView } from './methods/geolocation.js';
import { KnowledgeMethodView } from './methods/knowledge.js';
import { TwoStepMethodView } from './methods/two_step.js';
import { BiometricIdMethodView } from './methods/biometric_id.js';
import { VideoMethodView } from './methods/video.js';
import { VoiceMethodView } from './methods/voice.js';
import { BankMethodView } from './methods/bank.js';
import { SecureCardMethodView } from './methods/secure_card.js';
import { LiveVideoMethodView } from './methods/live_video.js';
import { ConsentView } from './consent.js';
import { PaymentAccountMethodView, SocialAccountMethodView } from './methods/oidc.js';
import { METHOD_KEYS, SESSION_ERROR_TYPES } from './routes.js';

export * from './routes.js';
export { VerificationStatusKey } from './methods/base.js';
export * from './methods/code.js';
export * from './methods/geolocation.js';
export * from './methods/knowledge.js';
export * from './methods/document_id.js';
export * from './methods/face.js';
export * from './methods/two_step.js';
export * from './methods/biometric_id.js';
export * from './methods/video.js';
export * from './methods/voice.js';
export * from './methods/secure_card.js';
export * from './methods/live_video.js';
export * from './consent.js';
export * from './methods/oidc.js';
export * from './methods/bank.js';

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/** The error body of every non-2xx answer. */
export const ErrorBody = z.object({
  error_type: z.enum(SESSION_ERROR_TYPES),
  error_message: z.string(),
  /** Field name → messages; only with `api_validation_error`. */
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
  /** Machine-readable extras the UI needs to guide the user. */
  details: z.optional(
    z.object({
      /** Tries left before a new code / a new attempt is needed (codes, knowledge). */
      attempts_left: z.optional(z.int()),
      /** Seconds to wait before retrying (429). */
      retry_after_seconds: z.optional(z.int()),
    }),
  ),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Overall state of the session's user as the flow sees it. */
export const SessionState = z.enum([
  /** Some methods still to do. */
  'in_progress',
  /** Every method submitted (complete, complete_in_review or processing): the flow can finish. */
  'ready_to_complete',
  /** `POST /session/complete` was called: finished. */
  'completed',
]);
export type SessionState = z.infer<typeof SessionState>;

/** Account branding applied on the hosted page (colours are CSS hex `#rrggbb`). */
export const Branding = z.object({
  account_name: z.string(),
  logo_url: z.nullable(z.string()),
  primary_color: z.nullable(z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/))),
  background_color: z.nullable(z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/))),
  text_color: z.nullable(z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/))),
});
export type Branding = z.infer<typeof Branding>;

/**
 * The hosted page's data block (`<script type="application/json" id="verity-page">`, see
 * `HOSTED_PAGE_DATA_ID`): the branding to show before the session loads, and whether the page is
 * the dashboard's branding preview (then nothing starts: no session, no request); `steps`, the
 * step keys of the link's user in template order, so the intro says what this user will do and
 * what to have at hand (absent in the preview and on a hand-off page).
 */
export const HostedPageData = z.object({ branding: Branding, preview: z.boolean(), steps: z.optional(z.array(z.enum(METHOD_KEYS))) });
export type HostedPageData = z.infer<typeof HostedPageData>;

// ---------------------------------------------------------------------------------------------
// Method views: one per method key, discriminated by `key`; each method's own schemas (its
// `needs` and its calls) are in `methods/<key>.ts`
// ---------------------------------------------------------------------------------------------

/** A method the template assigns but this page cannot perform (video, voice, bank…). */
export const OtherMethodView = z.object({
  ...methodBase,
  key: z.literal('other'),
  needs: z.object({}),
});

/** One assigned method with its status and what its step needs. */
export const MethodView = z.discriminatedUnion('key', [
  EmailMethodView,
  PhoneMethodView,
  GeolocationMethodView,
  KnowledgeMethodView,
  DocumentMethodView,
  SelfieMethodView,
  LivenessMethodView,
  TwoStepMethodView,
  BiometricIdMethodView,
  SocialAccountMethodView,
  PaymentAccountMethodView,
  VideoMethodView,
  VoiceMethodView,
  BankMethodView,
  SecureCardMethodView,
  LiveVideoMethodView,
  OtherMethodView,
]);
export type MethodView = z.infer<typeof MethodView>;
/** The method view for one key. */
export type MethodViewOf<K extends MethodView['key']> = Extract<MethodView, { key: K }>;

// ---------------------------------------------------------------------------------------------
// The session
// ---------------------------------------------------------------------------------------------

/**
 * `GET /session` → 200 `SessionView`; 401 `session_auth_error`.
 * Also the `session` field of start / claim answers and the `data` of SSE `session` events.
 */
export const SessionView = z.object({
  /** Display-only user info; no ids, no PII beyond the first name and masked contacts. */
  user: z.object({
    first_name: z.nullable(z.string()),
    email_masked: z.nullable(z.string()),
    phone_masked: z.nullable(z.string()),
  }),
  branding: Branding,
  /** Locale hints: the user's / account's preferred BCP 47 tag, or null (use the browser's). */
  locale: z.nullable(z.string()),
  /** Assigned methods in the order the flow presents them (the template's order). */
  methods: z.array(MethodView),
  state: SessionState,
  /** CSRF token for {@link CSRF_HEADER}; stable for the session's life. */
  csrf_token: z.string(),
  /** When the session expires if idle. */
  expires_at: isoDateTime,
  /** True when the account allows continuing on another device (QR hand-off). */
  handoff_enabled: z.boolean(),
  /** Present on a session that was claimed through a hand-off token (the phone side). */
  via_handoff: z.boolean(),
  /** Consent before biometric steps (see `consent.ts`). */
  consent: ConsentView,
});
export type SessionView = z.infer<typeof SessionView>;

/**
 * `POST /session/start` body. `link` is the full magic link as given to the customer
 * (`{base_url}/security-verify?expires=…&key=…&signature=…[&email=…&code=…]`); the server checks
 * its signature and expiry exactly as for `GET /security-verify` (the host may be a custom domain).
 *
 * Answers 200 {@link StartSessionResponse} and sets the cookie; 403 `session_link_invalid`
 * (tampered / wrong signature), 410 `session_link_expired`, 403 `session_link_revoked` (user
 * deleted or banned); never reveals whether a user exists; 409 `session_flow_completed` once the
 * user's flow was completed (the link starts nothing more; the widget shows its "you are done"
 * view). Moves the user Unconfirmed → Active.
 */
export const StartSessionRequest = z.object({ link: z.string().check(z.minLength(1)) });
export type StartSessionRequest = z.infer<typeof StartSessionRequest>;

/** Answer of `POST /session/start` and `POST /session/handoff/claim`. */
export const StartSessionResponse = z.object({
  /** Opaque bearer for {@link SESSION_TOKEN_HEADER}; same session as the cookie. */
  session_token: z.string(),
  session: SessionView,
});
export type StartSessionResponse = z.infer<typeof StartSessionResponse>;

/**
 * Answer of every per-method call that changes a method's status (verify code, geolocation,
 * knowledge, document submit, face submit, start, retry): the method after the call plus the
 * overall state, so the flow can move on without re-reading the session.
 */
export const MethodResult = z.object({
  method: MethodView,
  state: SessionState,
});
export type MethodResult = z.infer<typeof MethodResult>;

/** Answer of `POST /session/methods/knowledge` when passed (see `methods/knowledge.ts`). */
export const KnowledgeResponse = MethodResult;

/**
 * Answer of `POST /session/methods/two_step/verify` (see `methods/two_step.ts`): the method after
 * the call, and the recovery codes of a just-finished authenticator set-up (shown this once; the
 * server keeps only their hashes), else an empty list.
 */
export const TwoStepVerified = z.object({
  method: MethodView,
  state: SessionState,
  recovery_codes: z.array(z.string()),
});
export type TwoStepVerified = z.infer<typeof TwoStepVerified>;

// ---------------------------------------------------------------------------------------------
// Per-method calls
// ---------------------------------------------------------------------------------------------

// `POST /session/methods/{key}/start` (no body) → 200 `MethodResult`. Records the method's
// `start_time` (webhook payloads, spec 6.3). Idempotent. 404 `session_method_not_assigned`.
//
// `POST /session/methods/{key}/retry` (no body) → 200 `MethodResult` with the method back at
// `assigned`, when `can_retry`; else 409 `session_method_state_error`.

// ---------------------------------------------------------------------------------------------
// Cross-device hand-off and live progress
// ---------------------------------------------------------------------------------------------

/**
 * `POST /session/handoff` (no body) → 201 {@link HandoffResponse}: a one-time token (valid
 * 10 min, single use) that starts a second session for the same user on another device.
 * `url` is `{base_url}/security-verify?handoff=<token>`; `short_url` a `/l/<code>` short link to it.
 * 409 `session_method_state_error` when `handoff_enabled` is false, 409 `session_flow_completed`
 * once the flow was completed.
 */
export const HandoffResponse = z.object({
  url: z.string(),
  short_url: z.string(),
  expires_at: isoDateTime,
});
export type HandoffResponse = z.infer<typeof HandoffResponse>;

/**
 * `POST /session/handoff/claim` `{ token }` from the phone's hosted page → 200
 * {@link StartSessionResponse} (sets the cookie on the phone); 410 `session_handoff_invalid`
 * when used, expired or unknown, or when the flow was completed after the token was made
 * (completion ends every unclaimed token). The desktop session receives a `handoff` SSE event.
 */
export const HandoffClaimRequest = z.object({ token: z.string().check(z.minLength(1)) });
export type HandoffClaimRequest = z.infer<typeof HandoffClaimRequest>;

/**
 * `GET /session/events` — `text/event-stream` (Server-Sent Events) for the desktop page while
 * the phone works. Authenticated like every call (cookie or token header; the widget reads the
 * stream with `fetch`, so headers work). Events, each with a JSON `data` line:
 * - `event: session` — data {@link SessionView} on every change of any method status or state;
 *   the first event is sent immediately on connect;
 * - `event: handoff` — data {@link HandoffProgress} when the phone claims or finishes;
 * - comment lines (`: ping`) every 20 s as keep-alive.
 * The stream ends when the state is `completed` and no method is `processing` (until then a
 * refusal by the analysis, which reopens the flow, still reaches the page).
 */
export const HandoffProgress = z.object({
  phase: z.enum(['claimed', 'finished']),
  at: isoDateTime,
});
export type HandoffProgress = z.infer<typeof HandoffProgress>;
/** Names of SSE events on `GET /session/events`. */
export const SessionEventName = z.enum(['session', 'handoff']);
export type SessionEventName = z.infer<typeof SessionEventName>;

// ---------------------------------------------------------------------------------------------
// Completion
// ---------------------------------------------------------------------------------------------

/**
 * `POST /session/complete` (no body) once the state is `ready_to_complete` → 200
 * {@link CompleteResponse}; 409 `session_incomplete` otherwise. The state becomes `completed`.
 * `redirect_url` is the per-user `completion_url` / `redirect_url` set through the API, else the
 * account default, with `reference_id=<ref>&status=completed` appended; only http(s); null when
 * none is configured (the page then shows the result and stays). Nothing from the query string
 * is trusted.
 */
export const CompleteResponse = z.object({
  status: z.literal('completed'),
  /** The customer's `reference_id` for the user, or null when none was given. */
  reference_id: z.nullable(z.string()),
  redirect_url: z.nullable(z.string()),
});
export type CompleteResponse = z.infer<typeof CompleteResponse>;

/** Method keys (a tuple) as a zod enum, for servers validating path params. */
export const MethodKeyParam = z.enum(METHOD_KEYS);
