/**
 * Route paths, header names and limits of the end-user session API.
 *
 * Kept free of any runtime dependency (no zod here) so the widget bundle can import the
 * constants without pulling in schemas. `contract.ts` re-exports everything from this module
 * and documents each route in full.
 */

/**
 * The method keys the session API and the widget know, each with the family of routes it shares
 * with other keys (null: routes of its own): the one table of keys. `SERVER_METHODS`
 * (server/methods/registry.ts) and `WEB_STEPS` (src/steps/registry.ts) hold one entry per key of it,
 * and the key lists below are read from it. Order here is not the flow order.
 */
const METHOD_FAMILIES = {
  email: 'code',
  phone: 'code',
  geolocation: null,
  knowledge: null,
  document_id: null,
  selfie: 'face',
  liveness: 'face',
  two_step: null,
  social_account: 'oidc',
  payment_account: 'oidc',
  biometric_id: null,
  video: null,
  voice: null,
  bank: null,
  secure_card: null,
  live_video: null,
} as const;

type Families = typeof METHOD_FAMILIES;
/** A verification method the widget has a step for. */
export type MethodKey = keyof Families;
/** The keys of one family of shared routes. */
type FamilyKey<F extends string> = { [K in MethodKey]: Families[K] extends F ? K : never }[MethodKey];
/** A non-empty list of keys (what `z.enum` takes). */
type Keys<K extends string> = readonly [K, ...K[]];

function familyKeys<F extends 'code' | 'face' | 'oidc'>(family: F): Keys<FamilyKey<F>> {
  return (Object.keys(METHOD_FAMILIES) as MethodKey[]).filter((key) => METHOD_FAMILIES[key] === family) as unknown as Keys<FamilyKey<F>>;
}

/** Every method key. */
export const METHOD_KEYS = /* @__PURE__ */ Object.keys(METHOD_FAMILIES) as unknown as Keys<MethodKey>;

/** Methods whose code is sent by e-mail or SMS (same routes, same shapes). */
export const CODE_METHOD_KEYS = /* @__PURE__ */ familyKeys('code');
/** `email` or `phone`. */
export type CodeMethodKey = FamilyKey<'code'>;

/** Methods captured with the front camera (same routes, same shapes, a face result in their attributes). */
export const FACE_METHOD_KEYS = /* @__PURE__ */ familyKeys('face');
/** `selfie` or `liveness`. */
export type FaceMethodKey = FamilyKey<'face'>;

/** Methods proven by signing in with an OpenID Connect provider (same sign-in routes, same shapes). */
export const OIDC_METHOD_KEYS = /* @__PURE__ */ familyKeys('oidc');
/** `social_account` or `payment_account`. */
export type OidcMethodKey = FamilyKey<'oidc'>;

/** Name of the HttpOnly session cookie set by `POST /session/start`. */
export const SESSION_COOKIE = 'verity_session';
/**
 * Header carrying the session token instead of the cookie. Used by `<verify-flow>` embedded on a
 * customer's origin, where third-party cookies are unreliable. The server accepts either.
 */
export const SESSION_TOKEN_HEADER = 'X-Verity-Session';
/** Header carrying the CSRF token on every state-changing call (POST/PUT/DELETE). */
export const CSRF_HEADER = 'X-Verity-CSRF';

/** URL prefix under which the server serves `dist/web/` (widget bundles, hosted assets, models). */
export const WEB_ASSET_PREFIX = '/web/';
/** Hosted page path (spec 2.5). */
export const HOSTED_PAGE_PATH = '/security-verify';
/** Query parameter of the hosted page that carries a cross-device hand-off token. */
export const HANDOFF_QUERY_PARAM = 'handoff';
/**
 * Id of the `<script type="application/json">` block the server puts into the hosted page: the
 * account's branding before any session (and, in the dashboard's preview, the draft branding).
 */
export const HOSTED_PAGE_DATA_ID = 'verity-page';

/** Largest accepted upload: the spec's "less than 10 MB" (section 8). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Most pixels an uploaded image may declare (server: `server/uploads/limits.ts`; the browser checks it first). */
export const MAX_UPLOAD_PIXELS = 50_000_000;
/** Longest side of an uploaded image, in pixels. */
export const MAX_UPLOAD_SIDE = 20_000;
/** Most pages an uploaded PDF may have. */
export const MAX_PDF_PAGES = 20;
/** Media types accepted for document uploads (spec 4.13 / 8). */
export const DOCUMENT_MEDIA_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
/** Media types accepted for selfie / liveness frames. */
export const FRAME_MEDIA_TYPES = ['image/jpeg', 'image/png'] as const;
/** Media types accepted for the Video method's recording (checked by content). */
export const RECORDING_MEDIA_TYPES = ['video/webm', 'video/mp4'] as const;

/** Every route of the session API, relative to the service's `{base_url}`. */
export const SESSION_ROUTES = {
  start: '/session/start',
  session: '/session',
  events: '/session/events',
  complete: '/session/complete',
  handoff: '/session/handoff',
  handoffClaim: '/session/handoff/claim',
  consent: '/session/consent',
  methodStart: (key: MethodKey) => `/session/methods/${key}/start`,
  methodRetry: (key: MethodKey) => `/session/methods/${key}/retry`,
  codeSend: (key: CodeMethodKey) => `/session/methods/${key}/send`,
  codeVerify: (key: CodeMethodKey) => `/session/methods/${key}/verify`,
  geolocation: '/session/methods/geolocation',
  knowledge: '/session/methods/knowledge',
  documentUpload: '/session/methods/document_id/uploads',
  documentSubmit: '/session/methods/document_id/submit',
  faceChallenge: (key: FaceMethodKey) => `/session/methods/${key}/challenge`,
  faceFrames: (key: FaceMethodKey) => `/session/methods/${key}/frames`,
  faceSubmit: (key: FaceMethodKey) => `/session/methods/${key}/submit`,
  twoStepTotp: '/session/methods/two_step/totp',
  twoStepSms: '/session/methods/two_step/sms/send',
  twoStepVerify: '/session/methods/two_step/verify',
  passkeyOptions: '/session/methods/biometric_id/options',
  passkeyVerify: '/session/methods/biometric_id/verify',
  signIn: (key: OidcMethodKey) => `/session/methods/${key}/sign-in`,
  signInCancel: (key: OidcMethodKey) => `/session/methods/${key}/sign-in/cancel`,
  paymentSend: '/session/methods/payment_account/send',
  paymentVerify: '/session/methods/payment_account/verify',
  videoChallenge: '/session/methods/video/challenge',
  videoFrames: '/session/methods/video/frames',
  videoRecording: '/session/methods/video/recording',
  videoSubmit: '/session/methods/video/submit',
  voicePhrase: '/session/methods/voice/phrase',
  voiceRecording: '/session/methods/voice/recording',
  bankAccount: '/session/methods/bank/account',
  bankVerify: '/session/methods/bank/verify',
  secureCardSubmit: '/session/methods/secure_card/submit',
  /** Live Video's signalling WebSocket (see `methods/live_video.ts`). */
  liveVideoSocket: '/session/methods/live_video/socket',
} as const;

/**
 * The closed set of `error_type` values the session API answers with. The first block is the
 * spec's own catalogue (section 7); the `session_*` block is specific to the session API.
 */
export const SESSION_ERROR_TYPES = [
  'api_validation_error',
  'api_invalid_error',
  'api_rate_limit_error',
  'api_internal_error',
  'session_link_invalid',
  'session_link_expired',
  'session_link_revoked',
  'session_auth_error',
  'session_csrf_error',
  'session_method_not_assigned',
  'session_method_state_error',
  'session_code_invalid',
  'session_code_expired',
  'session_attempts_exceeded',
  'session_knowledge_failed',
  'session_location_rejected',
  'session_upload_invalid',
  'session_upload_too_large',
  'session_challenge_expired',
  'session_handoff_invalid',
  'session_incomplete',
  'session_flow_completed',
  'session_consent_required',
  'session_passkey_invalid',
  'session_sign_in_unavailable',
] as const;
/** One of {@link SESSION_ERROR_TYPES}. */
export type SessionErrorType = (typeof SESSION_ERROR_TYPES)[number];
