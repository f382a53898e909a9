/**
 * Consent before biometrics (issue 24): the session contract of the consent screen. Before any
 * step whose capture is biometric (a camera on a face or an identity document; see `biometric` in
 * the step and method registries), the user reads the account's consent text and agrees or
 * declines; the server records the decision and refuses those steps' capture routes until consent
 * to the current text is given.
 */
import * as z from 'zod/mini';
import { isoDateTime } from './methods/base.js';

/**
 * The version of the default consent text (the one each locale ships). An account's own text is
 * versioned by its hash instead (`sha256:` and 16 hex digits), so a changed text asks again.
 * Raise this when the default wording changes in meaning.
 */
export const DEFAULT_CONSENT_VERSION = 'default-1';

/** The consent part of the session (`SessionView.consent`). */
export const ConsentView = z.object({
  /** True when the user agreed to the current text; biometric steps may run. */
  given: z.boolean(),
  /** The account's own consent text, or null: the widget shows its default text in the user's language. */
  text: z.nullable(z.string()),
  /** The account's privacy policy (http(s)), or null. */
  privacy_url: z.nullable(z.string()),
  /** The version of the text shown (send it back with the decision). */
  text_version: z.string(),
});
export type ConsentView = z.infer<typeof ConsentView>;

/**
 * `POST /session/consent` `{ decision, text_version }` → 200 `SessionView` with the consent
 * recorded (time, text version, the request IP's country). 409 `session_method_state_error` when
 * `text_version` is not the current text's (it changed: show it again). `declined` is recorded too
 * and leaves the biometric steps closed.
 *
 * Without consent, the start and capture routes of biometric steps answer 403
 * `session_consent_required`.
 */
export const ConsentRequest = z.object({
  decision: z.enum(['given', 'declined']),
  text_version: z.string().check(z.minLength(1), z.maxLength(64)),
});
export type ConsentRequest = z.infer<typeof ConsentRequest>;

/** A recorded consent decision, as the customer API and the dashboard show it. */
export const ConsentRecord = z.object({
  decision: z.enum(['given', 'declined']),
  at: isoDateTime,
  text_version: z.string(),
  /** ISO 3166-1 alpha-2 of the request's IP address, or null when unknown. */
  ip_country: z.nullable(z.string()),
});
export type ConsentRecord = z.infer<typeof ConsentRecord>;
