/**
 * The error catalogue (spec section 7, plus the session API's types from `src/api/routes.ts`).
 * Every error a client can see is made here from its `error_type`, so a type always answers with
 * the one status listed for it and the bodies are exactly the spec's: `{ error_type,
 * error_message }`, plus `errors` for validation failures and `details` for the session API.
 */
export type FieldErrors = Record<string, string[]>;

/** Extra machine-readable facts the widget needs (contract `ErrorBody.details`). */
export interface SessionErrorDetails {
  attempts_left?: number;
  retry_after_seconds?: number;
}

export interface ErrorBody {
  error_type: string;
  error_message: string;
  errors?: FieldErrors;
  details?: SessionErrorDetails;
}

/**
 * Statuses and default messages of every error type; a type has one status (a test checks this
 * against the spec's table and the session contract).
 */
export const ERROR_CATALOGUE = {
  // Spec section 7.
  api_auth_error: { status: 401, message: 'Unauthenticated.' },
  api_user_error: { status: 404, message: 'User Not Found' },
  api_resource_error: { status: 404, message: 'Resource Not Found' },
  api_validation_error: { status: 422, message: 'The given data was invalid.' },
  api_template_error: { status: 422, message: 'Invalid templateId provided.' },
  api_invalid_error: { status: 400, message: 'Invalid or No Data Provided for Update' },
  api_internal_error: { status: 500, message: 'Internal Server Error' },
  api_rate_limit_error: { status: 429, message: 'Too Many Requests' },
  // Statuses the spec leaves open (architecture.md, "Decisions where the spec is silent").
  api_forbidden_error: { status: 403, message: 'A User-Agent header is required.' },
  invalid_document_id: { status: 404, message: 'Invalid Document Id' },
  verification_not_removable: { status: 409, message: 'Only an assigned verification can be removed.' },
  // The admin dashboard and self-signup: a request that clashes with the current state, and a
  // token or link that was valid once and is not any more.
  api_conflict_error: { status: 409, message: 'The request conflicts with the current state.' },
  api_gone_error: { status: 410, message: 'This is not available any more.' },
  // The session API (src/api/contract.ts, "Errors"); the widget reads these types.
  session_auth_error: { status: 401, message: 'No valid session. Open your verification link again.' },
  session_csrf_error: { status: 403, message: 'The request was refused (missing or wrong CSRF token or origin).' },
  session_link_invalid: { status: 403, message: 'This verification link is not valid.' },
  session_link_revoked: { status: 403, message: 'This verification link is no longer valid.' },
  session_consent_required: { status: 403, message: 'Consent is needed before this step can start.' },
  session_method_not_assigned: { status: 404, message: 'This verification method is not part of your verification.' },
  session_method_state_error: { status: 409, message: 'This step cannot be done now.' },
  session_incomplete: { status: 409, message: 'Some verification steps are not done yet.' },
  session_flow_completed: { status: 409, message: 'This verification is already complete. There is nothing more to do.' },
  session_link_expired: { status: 410, message: 'This verification link has expired.' },
  session_code_expired: { status: 410, message: 'The code has expired or was already used. Ask for a new one.' },
  session_challenge_expired: { status: 410, message: 'The challenge has expired. Start again.' },
  session_handoff_invalid: { status: 410, message: 'This hand-off link was already used or has expired.' },
  session_upload_too_large: { status: 413, message: 'The file is too large (10 MB at most).' },
  session_code_invalid: { status: 422, message: 'The code is not correct.' },
  session_knowledge_failed: { status: 422, message: 'Not enough answers were correct.' },
  session_location_rejected: { status: 422, message: 'The location was not accepted.' },
  session_passkey_invalid: { status: 422, message: 'The passkey could not be verified.' },
  session_upload_invalid: { status: 422, message: 'The upload was not accepted.' },
  session_attempts_exceeded: { status: 429, message: 'Too many wrong tries. Ask for a new code.' },
  session_sign_in_unavailable: { status: 503, message: 'The sign-in provider cannot be reached now. Try again in a moment.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorType = keyof typeof ERROR_CATALOGUE;

/** What an error may carry besides its type and message. */
export interface ErrorExtras {
  fieldErrors?: FieldErrors;
  headers?: Record<string, string>;
  details?: SessionErrorDetails;
}

/** An error a client sees; its status is the catalogue's for its type. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly statusCode: number;
  readonly fieldErrors?: FieldErrors;
  readonly headers: Record<string, string>;
  readonly details?: SessionErrorDetails;

  constructor(
    readonly errorType: ErrorType,
    message: string = ERROR_CATALOGUE[errorType].message,
    extras: ErrorExtras = {},
  ) {
    super(message);
    this.statusCode = ERROR_CATALOGUE[errorType].status;
    this.fieldErrors = extras.fieldErrors;
    this.headers = extras.headers ?? {};
    this.details = extras.details;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error_type: this.errorType, error_message: this.message };
    if (this.fieldErrors) body.errors = this.fieldErrors;
    if (this.details) body.details = this.details;
    return body;
  }
}

/**
 * `api_invalid_error` for a request HTTP itself refuses (406 Not Acceptable, 414 URI Too Long,
 * 431 headers too large…): the spec's type for malformed requests, under the status HTTP names.
 */
class ProtocolError extends ApiError {
  override readonly statusCode: number;
  constructor(message: string, status: number) {
    super('api_invalid_error', message);
    this.statusCode = status;
  }
}

/** The session API's errors are ApiErrors too; the class is kept so callers can tell them apart. */
export class SessionApiError extends ApiError {
  override name = 'SessionApiError';
}

const retryHeaders = (seconds: number) => ({ 'retry-after': String(seconds) });

/** The customer API's, dashboard's and signup's errors, one factory each. */
export const errors = {
  unauthenticated: (message?: string, fieldErrors?: FieldErrors) => new ApiError('api_auth_error', message, { fieldErrors }),
  userNotFound: () => new ApiError('api_user_error'),
  notFound: (message?: string) => new ApiError('api_resource_error', message),
  validation: (fieldErrors: FieldErrors, message?: string) => new ApiError('api_validation_error', message, { fieldErrors }),
  invalidTemplate: (reason = 'Invalid templateId provided.') => new ApiError('api_template_error', undefined, { fieldErrors: { template_id: [reason] } }),
  invalidData: (message?: string) => new ApiError('api_invalid_error', message),
  /** `api_invalid_error` under an HTTP status of its own (see {@link ProtocolError}). */
  protocol: (message: string, status: number): ApiError => new ProtocolError(message, status),
  internal: (message?: string) => new ApiError('api_internal_error', message),
  /** A socket sent messages faster than its budget (Live Video signalling): no Retry-After, the socket closes. */
  tooManyMessages: () => new ApiError('api_rate_limit_error', 'Too many messages.'),
  rateLimited: (retryAfterSeconds: number) => new ApiError('api_rate_limit_error', undefined, { headers: retryHeaders(retryAfterSeconds) }),
  missingUserAgent: () => new ApiError('api_forbidden_error'),
  forbidden: (message: string) => new ApiError('api_forbidden_error', message),
  invalidDocumentId: () => new ApiError('invalid_document_id'),
  verificationNotRemovable: () => new ApiError('verification_not_removable'),
  conflict: (message: string) => new ApiError('api_conflict_error', message),
  gone: (message: string) => new ApiError('api_gone_error', message),
} as const;

/** One field's validation failure. */
export function fieldError(field: string, message: string): ApiError {
  return errors.validation({ [field]: [message] });
}

/** The session API's errors, one factory each. */
export const sessionErrors = {
  auth: () => new SessionApiError('session_auth_error'),
  csrf: () => new SessionApiError('session_csrf_error'),
  linkInvalid: () => new SessionApiError('session_link_invalid'),
  linkExpired: () => new SessionApiError('session_link_expired'),
  linkRevoked: () => new SessionApiError('session_link_revoked'),
  notAssigned: () => new SessionApiError('session_method_not_assigned'),
  state: (message?: string) => new SessionApiError('session_method_state_error', message),
  codeInvalid: (attemptsLeft: number) => new SessionApiError('session_code_invalid', undefined, { details: { attempts_left: attemptsLeft } }),
  codeExpired: (message?: string) => new SessionApiError('session_code_expired', message),
  attemptsExceeded: (message?: string) => new SessionApiError('session_attempts_exceeded', message, { details: { attempts_left: 0 } }),
  /** 429 with the wait: a resend asked too early, or another rate limit. */
  resendTooSoon: (seconds: number) =>
    new SessionApiError('api_rate_limit_error', undefined, { details: { retry_after_seconds: seconds }, headers: retryHeaders(seconds) }),
  knowledgeFailed: (attemptsLeft: number) => new SessionApiError('session_knowledge_failed', undefined, { details: { attempts_left: attemptsLeft } }),
  locationRejected: (message: string) => new SessionApiError('session_location_rejected', message),
  uploadInvalid: (message: string) => new SessionApiError('session_upload_invalid', message),
  uploadTooLarge: () => new SessionApiError('session_upload_too_large'),
  challengeExpired: (message?: string) => new SessionApiError('session_challenge_expired', message),
  passkeyInvalid: (message: string, attemptsLeft: number) =>
    new SessionApiError('session_passkey_invalid', message, { details: { attempts_left: attemptsLeft } }),
  handoffInvalid: () => new SessionApiError('session_handoff_invalid'),
  incomplete: () => new SessionApiError('session_incomplete'),
  /** The link's flow was completed: the link starts nothing more (issue 18, point 5). */
  flowCompleted: () => new SessionApiError('session_flow_completed'),
  /** A biometric step before the user consented to the current consent text (issue 24). */
  consentRequired: () => new SessionApiError('session_consent_required'),
  validation: (fieldErrors: FieldErrors) => new SessionApiError('api_validation_error', undefined, { fieldErrors }),
  /** The OpenID Connect provider's discovery failed (down, misconfigured): nothing was started. */
  signInUnavailable: () => new SessionApiError('session_sign_in_unavailable'),
} as const;
