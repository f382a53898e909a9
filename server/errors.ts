/**
 * The error catalogue (spec section 7). Every error a client can see is made here, so the bodies
 * are exactly the spec's: `{ error_type, error_message }`, plus `errors` for validation failures.
 */
export type FieldErrors = Record<string, string[]>;

export interface ErrorBody {
  error_type: string;
  error_message: string;
  errors?: FieldErrors;
}

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly statusCode: number,
    readonly errorType: string,
    message: string,
    readonly fieldErrors?: FieldErrors,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error_type: this.errorType, error_message: this.message };
    if (this.fieldErrors) body.errors = this.fieldErrors;
    return body;
  }
}

/** Statuses and types of every error; codes are never reused (a test checks this against the spec). */
export const ERROR_CATALOGUE = {
  api_auth_error: { status: 401, message: 'Unauthenticated.' },
  api_user_error: { status: 404, message: 'User Not Found' },
  api_resource_error: { status: 404, message: 'Resource Not Found' },
  api_validation_error: { status: 422, message: 'The given data was invalid.' },
  api_template_error: { status: 422, message: 'Invalid templateId provided.' },
  api_invalid_error: { status: 400, message: 'Invalid or No Data Provided for Update' },
  api_internal_error: { status: 500, message: 'Internal Server Error' },
  api_rate_limit_error: { status: 429, message: 'Too Many Requests' },
  api_forbidden_error: { status: 403, message: 'A User-Agent header is required.' },
  invalid_document_id: { status: 404, message: 'Invalid Document Id' },
  verification_not_removable: { status: 409, message: 'Only an assigned verification can be removed.' },
} as const;

export type ErrorType = keyof typeof ERROR_CATALOGUE;

function make(type: ErrorType, message?: string, fieldErrors?: FieldErrors, status?: number): ApiError {
  const entry = ERROR_CATALOGUE[type];
  return new ApiError(status ?? entry.status, type, message ?? entry.message, fieldErrors);
}

export const errors = {
  unauthenticated: () => make('api_auth_error'),
  userNotFound: () => make('api_user_error'),
  notFound: (message = 'Resource Not Found') => make('api_resource_error', message),
  validation: (fieldErrors: FieldErrors) => make('api_validation_error', undefined, fieldErrors),
  invalidTemplate: (reason = 'Invalid templateId provided.') => make('api_template_error', undefined, { template_id: [reason] }),
  invalidData: (message?: string, status = 400) => make('api_invalid_error', message, undefined, status),
  internal: () => make('api_internal_error'),
  rateLimited: (retryAfterSeconds: number) => {
    const e = make('api_rate_limit_error');
    e.headers['retry-after'] = String(retryAfterSeconds);
    return e;
  },
  missingUserAgent: () => make('api_forbidden_error'),
  invalidDocumentId: () => make('invalid_document_id'),
  verificationNotRemovable: () => make('verification_not_removable'),
} as const;

/** One field's validation failure. */
export function fieldError(field: string, message: string): ApiError {
  return errors.validation({ [field]: [message] });
}
