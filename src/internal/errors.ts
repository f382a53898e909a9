/** Maps API and platform failures to the widget's closed error codes. */
import { ApiError } from '../api/session-client.js';
import { VerifyError } from '../events/events.js';

/** A {@link VerifyError} for any thrown value from a session API call. */
export function fromApiError(error: unknown): VerifyError {
  if (error instanceof VerifyError) return error;
  if (error instanceof ApiError) {
    switch (error.error_type) {
      case 'session_link_invalid':
        return new VerifyError('link_invalid', error.error_message, 'fatal', false, { cause: error });
      case 'session_link_expired':
        return new VerifyError('link_expired', error.error_message, 'fatal', false, { cause: error });
      case 'session_link_revoked':
        return new VerifyError('link_revoked', error.error_message, 'fatal', false, { cause: error });
      case 'session_auth_error':
      case 'session_handoff_invalid':
        return new VerifyError('session_expired', error.error_message, 'fatal', false, { cause: error });
      case 'api_rate_limit_error':
        return new VerifyError('rate_limited', error.error_message, 'warning', true, { cause: error });
      case 'network_error':
        return new VerifyError('network', error.error_message, 'error', true, { cause: error });
      case 'session_upload_invalid':
      case 'session_upload_too_large':
        return new VerifyError('upload_invalid', error.error_message, 'warning', true, { cause: error });
      case 'session_consent_required':
        return new VerifyError('consent_required', error.error_message, 'error', true, { cause: error });
      case 'session_location_rejected':
      case 'session_knowledge_failed':
      case 'session_attempts_exceeded':
        return new VerifyError('method_rejected', error.error_message, 'error', false, { cause: error });
      default:
        return new VerifyError('internal', error.error_message, 'error', true, { cause: error });
    }
  }
  return new VerifyError('internal', error instanceof Error ? error.message : 'Unexpected error', 'error', true, { cause: error });
}
