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
 * 403 `session_csrf_error` / `session_link_invalid` / `session_link_revoked`,
 * 404 `session_method_not_assigned`, 409 `session_method_state_error` / `session_incomplete` /
 * `session_flow_completed`,
 * 410 `session_link_expired` / `session_code_expired` / `session_challenge_expired` /
 * `session_handoff_invalid`, 413 `session_upload_too_large`,
 * 422 `api_validation_error` (with `errors`) / `session_code_invalid` / `session_knowledge_failed` /
 * `session_location_rejected` / `session_upload_invalid`,
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
import { METHOD_KEYS, SESSION_ERROR_TYPES } from './routes.js';

export * from './routes.js';

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/** ISO 8601 date-time with offset, e.g. `2026-01-01T10:00:00.000Z`. */
const isoDateTime = z.iso.datetime({ offset: true });

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

/** The spec's verification status keys (section 2.2); `removed` never reaches the widget. */
export const VerificationStatusKey = z.enum(['assigned', 'processing', 'complete', 'rejected', 'complete_in_review', 'reset']);
export type VerificationStatusKey = z.infer<typeof VerificationStatusKey>;

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
 * the dashboard's branding preview (then nothing starts: no session, no request).
 */
export const HostedPageData = z.object({ branding: Branding, preview: z.boolean() });
export type HostedPageData = z.infer<typeof HostedPageData>;

// ---------------------------------------------------------------------------------------------
// Method views: one per method key, discriminated by `key`
// ---------------------------------------------------------------------------------------------

const methodBase = {
  /** The spec's numeric method id (section 2.2): email 1, phone 2, document_id 3, geolocation 8,
   * liveness 20, knowledge 21; selfie 22 (Verity's id for the spec's unnumbered Selfie; a
   * template's Biometric ID, 13, is captured as a selfie too). */
  id: z.int(),
  /** Display name from the spec table, e.g. `Phone / SMS`. */
  name: z.string(),
  status: VerificationStatusKey,
  /** True when the user may try again now (after `rejected`, or `reset`). */
  can_retry: z.boolean(),
  /** Server's short reason when `rejected` (shown to the user; never PII), else null. */
  reason: z.nullable(z.string()),
};

/** Needs of the e-mail and SMS code steps. */
export const CodeNeeds = z.object({
  /** Masked destination, e.g. `j***@example.com` or `+44 ••• ••• 789`. */
  destination_masked: z.string(),
  /** Digits in the code (6). */
  code_length: z.int(),
  /** True when a code was already sent and has not expired. */
  code_sent: z.boolean(),
  /** When a new code may be sent, or null when it may be sent now. */
  resend_available_at: z.nullable(isoDateTime),
  /** Tries left for the current code (5 at first). */
  attempts_left: z.int(),
});
export type CodeNeeds = z.infer<typeof CodeNeeds>;

export const EmailMethodView = z.object({ ...methodBase, key: z.literal('email'), needs: CodeNeeds });
export const PhoneMethodView = z.object({ ...methodBase, key: z.literal('phone'), needs: CodeNeeds });

/** Needs of the geolocation step. */
export const GeolocationNeeds = z.object({
  /** Ask the browser for a high-accuracy fix. */
  high_accuracy: z.boolean(),
  /** `timeout` for `getCurrentPosition`, ms. */
  timeout_ms: z.int(),
  /** Allowed countries (ISO 3166-1 alpha-2) when the account restricts them, else null. Shown to
   * the user in the explanation; the server decides. */
  allowed_countries: z.nullable(z.array(z.string())),
});
export const GeolocationMethodView = z.object({
  ...methodBase,
  key: z.literal('geolocation'),
  needs: GeolocationNeeds,
});

/** One knowledge question as shown to the user (answers are never sent to the browser). */
export const KnowledgeQuestion = z.object({
  id: z.string(),
  prompt: z.string(),
  /** `text`: free text; `choice`: one of `choices`; `date`: `YYYY-MM-DD`; `number`: digits. */
  kind: z.enum(['text', 'choice', 'date', 'number']),
  /** Present only for `choice`. */
  choices: z.optional(z.array(z.object({ id: z.string(), label: z.string() }))),
  /** Longest accepted answer, characters. */
  max_length: z.int(),
});
export type KnowledgeQuestion = z.infer<typeof KnowledgeQuestion>;
export const KnowledgeNeeds = z.object({
  questions: z.array(KnowledgeQuestion),
  /** Correct answers needed to pass. */
  pass_threshold: z.int(),
  attempts_left: z.int(),
});
export const KnowledgeMethodView = z.object({
  ...methodBase,
  key: z.literal('knowledge'),
  needs: KnowledgeNeeds,
});

/** A document type the user may present. */
export const DocumentTypeOption = z.object({
  /** Stable key, e.g. `passport`, `drivers_license`, `id_card`, `residence_permit`. */
  key: z.string(),
  label: z.string(),
  /** 1 (passport) or 2 (front and back). */
  sides: z.union([z.literal(1), z.literal(2)]),
});
export type DocumentTypeOption = z.infer<typeof DocumentTypeOption>;
export const DocumentSide = z.enum(['front', 'back']);
export type DocumentSide = z.infer<typeof DocumentSide>;
export const DocumentNeeds = z.object({
  document_types: z.array(DocumentTypeOption),
  /** Accepted upload media types (`image/jpeg`, `image/png`, `application/pdf`). */
  accepted_media_types: z.array(z.string()),
  /** Largest accepted file, bytes (10 MB - 1). */
  max_bytes: z.int(),
  /** Uploads already made in this session (resume after reload), newest per side. */
  uploads: z.array(z.object({ upload_id: z.string(), document_type: z.string(), side: DocumentSide })),
});
export const DocumentMethodView = z.object({
  ...methodBase,
  key: z.literal('document_id'),
  needs: DocumentNeeds,
});

/** A liveness challenge step, judged on the device from the face box and keypoints. */
export const ChallengeStep = z.enum(['look_straight', 'turn_left', 'turn_right', 'come_closer']);
export type ChallengeStep = z.infer<typeof ChallengeStep>;
export const FaceNeeds = z.object({
  /** True for `liveness` (several randomised challenge steps), false for a plain `selfie`. */
  active_liveness: z.boolean(),
});
export const SelfieMethodView = z.object({ ...methodBase, key: z.literal('selfie'), needs: FaceNeeds });
export const LivenessMethodView = z.object({
  ...methodBase,
  key: z.literal('liveness'),
  needs: FaceNeeds,
});

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

// ---------------------------------------------------------------------------------------------
// Per-method calls
// ---------------------------------------------------------------------------------------------

/**
 * `POST /session/methods/{key}/start` (no body) → 200 {@link MethodResult}. Records the method's
 * `start_time` (webhook payloads, spec 6.3). Idempotent. 404 `session_method_not_assigned`.
 *
 * `POST /session/methods/{key}/retry` (no body) → 200 {@link MethodResult} with the method back
 * at `assigned`, when `can_retry`; else 409 `session_method_state_error`.
 */
export const NoBody = z.object({});

/**
 * `POST /session/methods/{email|phone}/send` (no body) sends a new 6-digit code (also the
 * resend); the previous code stops working. → 200 {@link CodeSentResponse}.
 * 429 `api_rate_limit_error` with `details.retry_after_seconds` while resend is not yet allowed.
 * Codes expire after 10 min, are single use and stored hashed.
 */
export const CodeSentResponse = z.object({
  destination_masked: z.string(),
  expires_at: isoDateTime,
  /** Earliest time for the next send (the resend countdown). */
  resend_available_at: isoDateTime,
  attempts_left: z.int(),
});
export type CodeSentResponse = z.infer<typeof CodeSentResponse>;

/**
 * `POST /session/methods/{email|phone}/verify` → 200 {@link MethodResult} (method `complete`).
 * 422 `session_code_invalid` with `details.attempts_left`; 410 `session_code_expired`;
 * 429 `session_attempts_exceeded` after 5 wrong tries (a new code must be sent).
 */
export const VerifyCodeRequest = z.object({ code: z.string().check(z.regex(/^\d{4,10}$/)) });
export type VerifyCodeRequest = z.infer<typeof VerifyCodeRequest>;

/**
 * `POST /session/methods/geolocation` with the browser's position (GeolocationPosition's
 * coords and timestamp). The server also records the request IP and `ip_country`, compares with
 * the allowed countries and → 200 {@link MethodResult} (`complete`), or 422
 * `session_location_rejected` (the method becomes `rejected`, `reason` says why).
 */
export const GeolocationRequest = z.object({
  latitude: z.number().check(z.gte(-90), z.lte(90)),
  longitude: z.number().check(z.gte(-180), z.lte(180)),
  /** Metres (95% confidence radius as the browser reports it). */
  accuracy: z.number().check(z.gte(0)),
  /** `GeolocationPosition.timestamp`, ms since the epoch. */
  timestamp: z.number(),
});
export type GeolocationRequest = z.infer<typeof GeolocationRequest>;

/**
 * `POST /session/methods/knowledge` with one answer per shown question. → 200
 * {@link KnowledgeResponse} when passed (method `complete`); 422 `session_knowledge_failed` with
 * `details.attempts_left` when not; 429 `session_attempts_exceeded` when no attempts are left
 * (method `rejected`).
 */
export const KnowledgeRequest = z.object({
  answers: z.array(
    z.object({
      question_id: z.string(),
      /** Free text / date / number as typed, or the chosen `choices[].id`. */
      answer: z.string().check(z.maxLength(500)),
    }),
  ),
});
export type KnowledgeRequest = z.infer<typeof KnowledgeRequest>;
export const KnowledgeResponse = MethodResult;

/**
 * `POST /session/methods/document_id/uploads` — `multipart/form-data`, one image per call:
 * - `document_type` (text): a `document_types[].key`
 * - `side` (text): `front` | `back`
 * - `source` (text): `camera` | `upload`
 * - `quality` (text, optional): JSON of {@link CaptureQualityReport} measured on the device
 * - `image` (file): JPG, PNG or PDF, < 10 MB (magic bytes checked by the server)
 * → 201 {@link DocumentUploadResponse}; 413 `session_upload_too_large`; 422
 * `session_upload_invalid` (type or unreadable). Stored in blob storage, not yet analysed.
 */
export const DocumentUploadFields = z.object({
  document_type: z.string(),
  side: DocumentSide,
  source: z.enum(['camera', 'upload']),
  quality: z.optional(z.string()),
});
export type DocumentUploadFields = z.infer<typeof DocumentUploadFields>;
export const DocumentUploadResponse = z.object({
  upload_id: z.string(),
  document_type: z.string(),
  side: DocumentSide,
  media_type: z.string(),
  size: z.int(),
});
export type DocumentUploadResponse = z.infer<typeof DocumentUploadResponse>;

/** Device-side quality metrics sent with a camera capture (informational for the server). */
export const CaptureQualityReport = z.object({
  blur_variance: z.number(),
  glare_ratio: z.number(),
  mean_luma: z.number(),
  document_found: z.boolean(),
  good_frames: z.int(),
});
export type CaptureQualityReport = z.infer<typeof CaptureQualityReport>;

/**
 * `POST /session/methods/document_id/submit` — the reviewed uploads. → 200 {@link MethodResult}
 * (method `processing`; analysis is enqueued, events per architecture.md). 422
 * `api_validation_error` when a two-sided type lacks `back_upload_id` or an id is unknown.
 */
export const DocumentSubmitRequest = z.object({
  document_type: z.string(),
  front_upload_id: z.string(),
  back_upload_id: z.optional(z.string()),
});
export type DocumentSubmitRequest = z.infer<typeof DocumentSubmitRequest>;

/**
 * `POST /session/methods/{selfie|liveness}/challenge` (no body) → 201 {@link FaceChallenge}:
 * the server picks a randomised sequence (for `selfie` just `['look_straight']`; for `liveness`
 * `look_straight` then 2-3 of `turn_left`, `turn_right`, `come_closer` in random order, always
 * with a turn), its timing, and remembers it; a new call replaces the previous challenge.
 *
 * The capture is bound to the challenge on the server: every frame must carry its
 * `challenge_id` (a random nonce) and reach the server before `expires_at`; the frames of one
 * step must all arrive within `step_window_ms` of its first; a frame's `evidence.t` must grow
 * from frame to frame and may not claim more time than has passed on the server since the
 * challenge was issued. Frames outside these rules → 410 `session_challenge_expired` (nonce,
 * expiry, step window) or 422 `session_upload_invalid` (order, timing).
 *
 * Attempts: each challenge is one attempt. After `attempts_left` reaches 0 one more challenge is
 * handed out with `review_on_failure: true` (the widget shows help and the hand-off first): a
 * capture of it that fails the checks goes to a reviewer instead of being rejected. After that,
 * 429 `session_attempts_exceeded`. A retry after a rejection keeps the count.
 */
export const FaceChallenge = z.object({
  challenge_id: z.string(),
  steps: z.array(ChallengeStep),
  expires_at: isoDateTime,
  /** Most frames the server takes per step (`frame_index` 0 … this − 1): the dense frames of a move. */
  frames_per_step: z.int(),
  /** Fewest frames each move (every step but `look_straight`) must have at submit. */
  min_frames_per_move: z.int(),
  /** The frames of one step must all reach the server within this many ms of its first. */
  step_window_ms: z.int(),
  /** This attempt's number, from 1. */
  attempt: z.int(),
  /** Normal attempts left after this one. */
  attempts_left: z.int(),
  /** True for the last attempt: a capture that fails the checks goes to a reviewer. */
  review_on_failure: z.boolean(),
});
export type FaceChallenge = z.infer<typeof FaceChallenge>;

/** Face geometry measured on the device for one frame (normalised 0..1 to the frame size). */
export const FaceEvidence = z.object({
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  /** BlazeFace's 6 keypoints: right eye, left eye, nose tip, mouth, right ear, left ear. */
  keypoints: z.array(z.object({ x: z.number(), y: z.number() })),
  score: z.number(),
  /** Estimated head yaw from keypoints, -1 (turned to the user's right) .. 1 (left). */
  yaw: z.number(),
  /** ms since the challenge was shown. */
  t: z.number(),
});
export type FaceEvidence = z.infer<typeof FaceEvidence>;

/**
 * `POST /session/methods/{selfie|liveness}/frames` — `multipart/form-data`, one frame per call,
 * steps in order and within a step `frame_index` 0, 1, … (a move's frames in capture order, the
 * held pose last; re-sending the same step and index replaces that frame):
 * - `challenge_id` (text), `step_index` (text, integer), `step` (text: a {@link ChallengeStep}),
 *   `frame_index` (text, integer, optional, default 0; below `frames_per_step`)
 * - `evidence` (text): JSON of {@link FaceEvidence}
 * - `frame` (file): JPEG or PNG, < 10 MB
 * → 201 `{ frame_id }`; 410 `session_challenge_expired`; 422 `session_upload_invalid` (wrong
 * step order or type).
 */
export const FaceFrameFields = z.object({
  challenge_id: z.string(),
  step_index: z.string().check(z.regex(/^\d+$/)),
  step: ChallengeStep,
  frame_index: z.optional(z.string().check(z.regex(/^\d+$/))),
  evidence: z.string(),
});
export type FaceFrameFields = z.infer<typeof FaceFrameFields>;
export const FaceFrameResponse = z.object({ frame_id: z.string() });
export type FaceFrameResponse = z.infer<typeof FaceFrameResponse>;

/**
 * `POST /session/methods/{selfie|liveness}/submit` once every step has its frames (moves at least
 * `min_frames_per_move`) → 200 {@link MethodResult} (method `processing`; the server's analysis
 * checks the frames). 422 `session_upload_invalid` when frames are missing; 410
 * `session_challenge_expired`.
 */
export const FaceSubmitRequest = z.object({ challenge_id: z.string() });
export type FaceSubmitRequest = z.infer<typeof FaceSubmitRequest>;

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
 * The stream ends when the state becomes `completed`.
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
