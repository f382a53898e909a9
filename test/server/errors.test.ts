import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, errors, sessionErrors, type ApiError, type ErrorType } from '../../server/errors.js';
import { SESSION_ERROR_TYPES } from '../../src/api/routes.js';

/**
 * Spec section 7, transcribed (the spec lives outside this repository): status and message where
 * the spec shows them.
 */
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

/** The session contract's "Errors" paragraph (src/api/contract.ts), read as status → types. */
function contractStatuses(): Map<string, number> {
  const source = readFileSync(new URL('../../src/api/contract.ts', import.meta.url), 'utf8');
  const paragraph = /Status codes used:([\s\S]*?)\n \*\n/.exec(source)?.[1] ?? '';
  const statuses = new Map<string, number>();
  // Each status is followed by the types it answers with, up to the next status.
  for (const [, status, types] of paragraph.matchAll(/(\d{3})((?:[^0-9]|\d(?!\d\d ))*)/g)) {
    for (const [, type] of types!.matchAll(/`([a-z_]+)`/g)) statuses.set(type!, Number(status));
  }
  return statuses;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('error catalogue', () => {
  it('has every error type of the spec with its status and message', () => {
    for (const [type, status, message] of SPEC_TABLE) {
      const entry = ERROR_CATALOGUE[type as ErrorType];
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

  it('holds every session error type with the status the session contract lists for it', () => {
    const listed = contractStatuses();
    expect(listed.size).toBeGreaterThan(15);
    for (const type of SESSION_ERROR_TYPES) {
      expect(ERROR_CATALOGUE[type], type).toBeDefined();
      expect(ERROR_CATALOGUE[type].status, type).toBe(listed.get(type));
    }
  });

  it('answers each error with the status of its type', () => {
    // Every factory, called with arguments of the right shapes (a message, a status or a count).
    const factories = [...Object.values(errors), ...Object.values(sessionErrors)] as ((...args: unknown[]) => ApiError)[];
    const made = factories.map((make) => make('m', 1));
    for (const error of made) {
      if (error.errorType === 'api_invalid_error') continue; // HTTP's own refusals keep HTTP's status (errors.protocol)
      expect(error.statusCode, error.errorType).toBe(ERROR_CATALOGUE[error.errorType].status);
    }
  });

  it('is the only place server code makes an error a client sees', () => {
    const root = new URL('../../server/', import.meta.url).pathname;
    const makers = sourceFiles(root).filter((file) => !file.endsWith('/server/errors.ts') && /new (Session)?ApiError\(/.test(readFileSync(file, 'utf8')));
    expect(makers).toEqual([]);
  });

  it('adds errors only to validation failures and details only to session errors', () => {
    expect(errors.validation({ email: ['bad'] }).toBody()).toEqual({
      error_type: 'api_validation_error',
      error_message: 'The given data was invalid.',
      errors: { email: ['bad'] },
    });
    expect('errors' in errors.unauthenticated().toBody()).toBe(false);
    expect(sessionErrors.codeInvalid(2).toBody()).toEqual({
      error_type: 'session_code_invalid',
      error_message: 'The code is not correct.',
      details: { attempts_left: 2 },
    });
  });
});
