import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { User } from '../../src/api/user.js';

/** Shared request and response pieces of the customer API. */

/** `true`/`false` as JSON booleans or as form strings (`1`, `0`, `true`, `false`). */
export const booleanish = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')]);

/** A phone number with its international code, normalised to E.164 (spec 2.1). */
export const e164Phone = z.string().transform((value, ctx) => {
  const parsed = parsePhoneNumberFromString(value.trim());
  if (!parsed || !parsed.isValid()) {
    ctx.addIssue({ code: 'custom', message: 'The phone must be a valid number in E.164 format, e.g. +14155550123.' });
    return z.NEVER;
  }
  return parsed.number;
});

export const email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'The email must be a valid email address.' }));

/** Only http(s) URLs may be redirect targets. */
export const httpUrl = z.url({ protocol: /^https?$/, message: 'The URL must be an http or https URL.' }).max(2048);

export const templateName = z.string().max(100);

/** A string that must hold JSON (custom_verify_data, spec 4.3). */
export const jsonString = z
  .string()
  .max(65_536)
  .refine((v) => {
    try {
      JSON.parse(v);
      return true;
    } catch {
      return false;
    }
  }, 'The value must be a valid JSON string.');

export const errorBody = z
  .object({
    error_type: z.string(),
    error_message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'Error' });

/**
 * The spec's user under its OpenAPI id `User`: the shared contract's (`src/api/user.ts`, which the
 * dashboard reads too), not a second definition.
 */
export const userSchema = z.object(User.shape).meta({ id: 'User' });

/** Error responses every authenticated route can give. */
export const commonErrors = {
  401: errorBody,
  403: errorBody,
  429: errorBody,
  500: errorBody,
} as const;

export const bearerSecurity = [{ bearerAuth: [] }];
