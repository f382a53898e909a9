/**
 * The self-signup page's contract (`/signup/api/...`): whether signup is open and what it asks,
 * the code step, and the link into verification.
 */
import * as z from 'zod/mini';
import { Branding } from './settings.js';

/** `GET /signup/api/config`. */
export const SignupConfig = z.object({
  enabled: z.boolean(),
  ask_name: z.boolean(),
  ask_phone: z.boolean(),
  account_name: z.string(),
  /** The hosted page's branding (the logo only when it is an http(s) URL). */
  branding: Branding,
});
export type SignupConfig = z.infer<typeof SignupConfig>;

/** `POST /signup/api/start`: the token of this signup and how long the e-mailed code lasts. */
export const SignupStarted = z.object({ token: z.string(), code_ttl_minutes: z.int() });
export type SignupStarted = z.infer<typeof SignupStarted>;

/** `POST /signup/api/confirm`: the link into verification. */
export const SignupConfirmed = z.object({ magic_link: z.string() });
export type SignupConfirmed = z.infer<typeof SignupConfirmed>;
