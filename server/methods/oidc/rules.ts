/** Pure rules of sign-in with an OpenID Connect provider (Social Account, Payment Account). */

/** A sign-in must come back from the provider within 10 minutes of the step asking for it. */
export const SIGN_IN_TTL_MS = 10 * 60 * 1000;
/** Sign-ins a user may start per step in an hour (each one is a trip to the provider). */
export const SIGN_INS_PER_HOUR = 10;
export const SIGN_IN_WINDOW_MS = 60 * 60 * 1000;
/** Finished sign-ins are kept a day (the step shows the last outcome; support questions), then deleted. */
export const KEEP_FINISHED_MS = 24 * 60 * 60 * 1000;
/** Scopes asked for when the operator names none: the subject and the e-mail claims. */
export const DEFAULT_SCOPES = 'openid email';

/** Why a sign-in did not prove anything. */
export type SignInFailure = 'cancelled' | 'provider_error' | 'invalid_response' | 'expired';
/** What the last sign-in of a step came to, as the step shows it. */
export type SignInStatus = 'none' | 'pending' | 'done' | SignInFailure;

/**
 * The provider's `error` on the callback, as the step explains it: the user said no or backed out
 * (`access_denied`, RFC 6749 4.1.2.1) is a cancelled sign-in; anything else is the provider's.
 */
export function failureOfProviderError(error: string): SignInFailure {
  return error === 'access_denied' ? 'cancelled' : 'provider_error';
}

/** Scopes as stored: `openid` always first, each once, separated by one space. */
export function normaliseScopes(scopes: string | undefined): string {
  const list = (scopes ?? DEFAULT_SCOPES).split(/[\s,]+/).filter(Boolean);
  return ['openid', ...new Set(list.filter((s) => s !== 'openid'))].join(' ');
}

/** E-mail addresses compared as their owners mean them: surrounding space and case do not count. */
export function sameEmail(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** How an e-mail a provider vouched for compares with the one the user is expected to have. */
export type EmailDecision = { outcome: 'complete'; remark: null } | { outcome: 'review'; remark: string };

/**
 * The rule for a successful sign-in (documented in docs/end-user.md). The sign-in proves the user
 * controls the provider account; whether that account is this user's is proven only by an e-mail
 * the provider has verified and that equals the expected one. Anything less is not evidence of
 * fraud (people sign in with another address all the time), so, as Stripe and Onfido treat an
 * unconfirmed match, it goes to a reviewer (`complete_in_review`) rather than being rejected.
 */
export function decideEmail(proven: { email: string | null; emailVerified: boolean }, expected: string | null): EmailDecision {
  if (proven.email === null) return { outcome: 'review', remark: 'The provider gave no e-mail address to compare.' };
  if (!proven.emailVerified) return { outcome: 'review', remark: 'The provider has not verified the e-mail address of the account.' };
  if (!sameEmail(proven.email, expected)) return { outcome: 'review', remark: 'The provider account has another e-mail address.' };
  return { outcome: 'complete', remark: null };
}
