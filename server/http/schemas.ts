import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';

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

export const verificationEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.object({ value: z.number().int(), friendly: z.string() }),
});

export const userSchema = z
  .object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    username: z.string(),
    email: z.string(),
    verifications: z.array(verificationEntry),
    phone: z.string().nullable(),
    avatar: z.string(),
    address: z.string().nullable(),
    country_id: z.number().int().nullable(),
    role_id: z.number().int(),
    status: z.enum(['Unconfirmed', 'Active', 'Verified', 'Banned', 'Review']),
    birthday: z.string().nullable(),
    last_login: z.string().nullable(),
    two_factor_country_code: z.number().int().nullable(),
    two_factor_phone: z.string().nullable(),
    two_factor_options: z.record(z.string(), z.unknown()).nullable(),
    email_verified_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'User' });

/** Error responses every authenticated route can give. */
export const commonErrors = {
  401: errorBody,
  403: errorBody,
  429: errorBody,
  500: errorBody,
} as const;

export const bearerSecurity = [{ bearerAuth: [] }];
