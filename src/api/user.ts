/**
 * The spec's user (spec 2.1), in the spec's field order: the one definition both the customer API
 * (its OpenAPI schema `User`, `server/http/schemas.ts`) and the dashboard (`AdminUser`) show.
 */
import * as z from 'zod/mini';
import { USER_STATUSES } from './admin/user-statuses.js';

/** One of the user's verifications: the method's id and name, and its status. */
export const UserVerification = z.object({ id: z.int(), name: z.string(), status: z.object({ value: z.int(), friendly: z.string() }) });

export const User = z.object({
  id: z.int(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  email: z.string(),
  verifications: z.array(UserVerification),
  phone: z.nullable(z.string()),
  avatar: z.string(),
  address: z.nullable(z.string()),
  country_id: z.nullable(z.int()),
  role_id: z.int(),
  status: z.enum(USER_STATUSES),
  birthday: z.nullable(z.string()),
  last_login: z.nullable(z.string()),
  two_factor_country_code: z.nullable(z.int()),
  two_factor_phone: z.nullable(z.string()),
  /** The second factor turned on through Two-Step Authentication (spec user fields). */
  two_factor_options: z.nullable(z.record(z.string(), z.unknown())),
  email_verified_at: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type User = z.infer<typeof User>;
