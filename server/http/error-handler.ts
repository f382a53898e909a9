import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ApiError, errors, type FieldErrors } from '../errors.js';

/** Fastify's own client errors, answered in the spec's shape with their status kept. */
const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Invalid or No Data Provided for Update',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid Content-Length.',
};

function fieldErrorsFrom(error: FastifyError): FieldErrors {
  const out: FieldErrors = {};
  for (const v of error.validation ?? []) {
    const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = path || (error.validationContext === 'body' ? 'body' : String(error.validationContext ?? 'request'));
    (out[field] ??= []).push(v.message ?? 'Invalid value.');
  }
  return out;
}

/** PostgreSQL's "character not in repertoire" / "untranslatable character" (NUL in text). */
function isUnstorableText(error: FastifyError): boolean {
  return 'severity' in error && (error.code === '22021' || error.code === '22P05');
}

/** The one error handler: every error leaves as the spec's body; 5xx details go to the log only. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    let apiError: ApiError;
    if (error instanceof ApiError) {
      apiError = error;
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      apiError = errors.validation(fieldErrorsFrom(error));
    } else if (isResponseSerializationError(error)) {
      req.log.error({ err: { message: error.message, issues: error.cause.issues } }, 'response did not match its schema');
      apiError = errors.internal();
    } else if (isUnstorableText(error)) {
      // PostgreSQL refuses some text SQLite takes (a NUL byte, e.g. `/api/users/ref/%00`): the
      // request is at fault, not the server.
      apiError = errors.invalidData('The request contains a character that cannot be stored.', 400);
    } else if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      const message = CLIENT_ERROR_MESSAGES[error.code] ?? 'Invalid or No Data Provided for Update';
      apiError = errors.invalidData(message, error.statusCode);
    } else {
      req.log.error({ err: error }, 'unexpected error');
      apiError = errors.internal();
    }
    void reply.code(apiError.statusCode).headers(apiError.headers).send(apiError.toBody());
  });

  app.setNotFoundHandler((req, reply) => {
    const e = errors.notFound(`No route for ${req.method} ${req.url.split('?')[0]}`);
    void reply.code(404).send(e.toBody());
  });
}
