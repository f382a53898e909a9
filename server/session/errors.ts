import { ApiError, type ErrorBody } from '../errors.js';
import type { SessionErrorType } from '../../src/api/contract.js';

/** Extra machine-readable facts the widget needs (contract `ErrorBody.details`). */
export interface SessionErrorDetails {
  attempts_left?: number;
  retry_after_seconds?: number;
}

/**
 * An error of the session API: the contract's `error_type`, its status, and optional `details`.
 * It is an {@link ApiError}, so the one error handler answers it like every other error.
 */
export class SessionApiError extends ApiError {
  constructor(
    statusCode: number,
    errorType: SessionErrorType,
    message: string,
    readonly details?: SessionErrorDetails,
    headers: Record<string, string> = {},
    fieldErrors?: Record<string, string[]>,
  ) {
    super(statusCode, errorType, message, fieldErrors, headers);
  }

  override toBody(): ErrorBody & { details?: SessionErrorDetails } {
    return this.details ? { ...super.toBody(), details: this.details } : super.toBody();
  }
}

/** The session API's errors, one factory each (statuses as `src/api/contract.ts` lists them). */
export const sessionErrors = {
  auth: () => new SessionApiError(401, 'session_auth_error', 'No valid session. Open your verification link again.'),
  csrf: () => new SessionApiError(403, 'session_csrf_error', 'The request was refused (missing or wrong CSRF token or origin).'),
  linkInvalid: () => new SessionApiError(403, 'session_link_invalid', 'This verification link is not valid.'),
  linkExpired: () => new SessionApiError(410, 'session_link_expired', 'This verification link has expired.'),
  linkRevoked: () => new SessionApiError(403, 'session_link_revoked', 'This verification link is no longer valid.'),
  notAssigned: () => new SessionApiError(404, 'session_method_not_assigned', 'This verification method is not part of your verification.'),
  state: (message = 'This step cannot be done now.') => new SessionApiError(409, 'session_method_state_error', message),
  codeInvalid: (attemptsLeft: number) => new SessionApiError(422, 'session_code_invalid', 'The code is not correct.', { attempts_left: attemptsLeft }),
  codeExpired: () => new SessionApiError(410, 'session_code_expired', 'The code has expired or was already used. Ask for a new one.'),
  attemptsExceeded: (message = 'Too many wrong tries. Ask for a new code.') =>
    new SessionApiError(429, 'session_attempts_exceeded', message, { attempts_left: 0 }),
  /** 429 with the wait: a resend asked too early, or another rate limit. */
  resendTooSoon: (seconds: number) =>
    new SessionApiError(429, 'api_rate_limit_error', 'Too Many Requests', { retry_after_seconds: seconds }, { 'retry-after': String(seconds) }),
  knowledgeFailed: (attemptsLeft: number) =>
    new SessionApiError(422, 'session_knowledge_failed', 'Not enough answers were correct.', { attempts_left: attemptsLeft }),
  locationRejected: (message: string) => new SessionApiError(422, 'session_location_rejected', message),
  uploadInvalid: (message: string) => new SessionApiError(422, 'session_upload_invalid', message),
  uploadTooLarge: () => new SessionApiError(413, 'session_upload_too_large', 'The file is too large (10 MB at most).'),
  challengeExpired: () => new SessionApiError(410, 'session_challenge_expired', 'The challenge has expired. Start again.'),
  handoffInvalid: () => new SessionApiError(410, 'session_handoff_invalid', 'This hand-off link was already used or has expired.'),
  incomplete: () => new SessionApiError(409, 'session_incomplete', 'Some verification steps are not done yet.'),
  /** The link's flow was completed: the link starts nothing more (issue 18, point 5). */
  flowCompleted: () => new SessionApiError(409, 'session_flow_completed', 'This verification is already complete. There is nothing more to do.'),
  validation: (errors: Record<string, string[]>) => new SessionApiError(422, 'api_validation_error', 'The given data was invalid.', undefined, {}, errors),
} as const;
