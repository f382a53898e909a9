/** The e-mail and SMS code methods' session contract (`email`, `phone`). */
import * as z from 'zod/mini';
import { isoDateTime, methodBase } from './base.js';

/** Needs of the e-mail and SMS code steps. */
export const CodeNeeds = z.object({
  /** Masked destination, e.g. `j***@example.com` or `+44 ••• ••• 789`. */
  destination_masked: z.string(),
  /** Digits in the code (6). */
  code_length: z.int(),
  /** True when a code was already sent and has not expired. */
  code_sent: z.boolean(),
  /** When a new code may be sent, or null when it may be sent now. */
  resend_available_at: z.nullable(isoDateTime),
  /** Tries left for the current code (5 at first). */
  attempts_left: z.int(),
});
export type CodeNeeds = z.infer<typeof CodeNeeds>;

export const EmailMethodView = z.object({ ...methodBase, key: z.literal('email'), needs: CodeNeeds });
export const PhoneMethodView = z.object({ ...methodBase, key: z.literal('phone'), needs: CodeNeeds });

/**
 * `POST /session/methods/{email|phone}/send` (no body) sends a new 6-digit code (also the
 * resend); the previous code stops working. → 200 {@link CodeSentResponse}.
 * 429 `api_rate_limit_error` with `details.retry_after_seconds` while resend is not yet allowed.
 * Codes expire after 10 min, are single use and stored hashed.
 */
export const CodeSentResponse = z.object({
  destination_masked: z.string(),
  expires_at: isoDateTime,
  /** Earliest time for the next send (the resend countdown). */
  resend_available_at: isoDateTime,
  attempts_left: z.int(),
});
export type CodeSentResponse = z.infer<typeof CodeSentResponse>;

/**
 * `POST /session/methods/{email|phone}/verify` → 200 {@link MethodResult} (method `complete`).
 * 422 `session_code_invalid` with `details.attempts_left`; 410 `session_code_expired`;
 * 429 `session_attempts_exceeded` after 5 wrong tries (a new code must be sent).
 */
export const VerifyCodeRequest = z.object({ code: z.string().check(z.regex(/^\d{4,10}$/)) });
export type VerifyCodeRequest = z.infer<typeof VerifyCodeRequest>;
