import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, errors } from '../../server/errors.js';

/** Spec section 7, as written there (status and message where the spec shows them). */
const SPEC_TABLE: [type: string, status: number | undefined, message: string | undefined][] = [
  ['api_auth_error', 401, 'Unauthenticated.'],
  ['api_user_error', 404, 'User Not Found'],
  ['api_resource_error', 404, undefined],
  ['api_validation_error', 422, 'The given data was invalid.'],
  ['api_template_error', 422, 'Invalid templateId provided.'],
  ['api_invalid_error', 400, 'Invalid or No Data Provided for Update'],
  ['api_internal_error', 500, 'Internal Server Error'],
  ['api_rate_limit_error', 429, 'Too Many Requests'],
  ['invalid_document_id', undefined, 'Invalid Document Id'],
  ['verification_not_removable', undefined, undefined],
];

describe('error catalogue', () => {
  it('has every error type of the spec with its status and message', () => {
    for (const [type, status, message] of SPEC_TABLE) {
      const entry = ERROR_CATALOGUE[type as keyof typeof ERROR_CATALOGUE];
      expect(entry, type).toBeDefined();
      if (status !== undefined) expect(entry.status, type).toBe(status);
      if (message !== undefined) expect(entry.message, type).toBe(message);
    }
  });

  it('uses the architecture statuses where the spec gives none', () => {
    expect(ERROR_CATALOGUE.invalid_document_id.status).toBe(404);
    expect(ERROR_CATALOGUE.verification_not_removable.status).toBe(409);
    expect(errors.missingUserAgent().toBody()).toEqual({
      error_type: 'api_forbidden_error',
      error_message: 'A User-Agent header is required.',
    });
  });

  it('adds errors only to validation failures', () => {
    expect(errors.validation({ email: ['bad'] }).toBody()).toEqual({
      error_type: 'api_validation_error',
      error_message: 'The given data was invalid.',
      errors: { email: ['bad'] },
    });
    expect('errors' in errors.unauthenticated().toBody()).toBe(false);
  });
});
