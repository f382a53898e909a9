/** Pure rules of the Biometric ID method (no database). */
import type { PasskeyCeremony } from '../../../src/api/contract.js';

/** Failed ceremonies before the method is rejected. */
export const PASSKEY_MAX_ATTEMPTS = 5;
/** How long a challenge may be answered (WebAuthn's own prompt times out after 2 minutes). */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** The browser prompt's timeout handed to `navigator.credentials`. */
export const PASSKEY_PROMPT_TIMEOUT_MS = 120_000;

/** What the method keeps between calls, in `method_state` under `biometric_id`. */
export interface PasskeyState {
  /** SHA-256 of the pending challenge (base64url); null once used. */
  challenge_hash: string | null;
  ceremony: PasskeyCeremony;
  /** The session the challenge was handed to: another session cannot answer it. */
  session_id: number;
  expires_at: string;
  /** Failed ceremonies since the method was last opened. */
  attempts: number;
  /** True once the tries ran out and the method was rejected. */
  locked: boolean;
}

/**
 * The tries used, as seen by a request on an open method: a locked state on an open method means
 * someone entitled (the customer, an operator) reopened it, and its tries come back.
 */
export function triesUsed(state: PasskeyState | undefined): number {
  if (!state || state.locked) return 0;
  return state.attempts;
}

/** Tries left after `used` failures. */
export function attemptsLeft(used: number): number {
  return Math.max(0, PASSKEY_MAX_ATTEMPTS - used);
}

/** Why a pending challenge cannot be answered now, or null when it can. */
export function challengeProblem(state: PasskeyState | undefined, sessionId: number, now: Date): 'none' | 'expired' | 'other_session' | null {
  if (!state?.challenge_hash) return 'none';
  if (state.session_id !== sessionId) return 'other_session';
  if (state.expires_at <= now.toISOString()) return 'expired';
  return null;
}

/**
 * The relying party of a deployment: the public URL's host is the rp id. The accepted origins are
 * the public URL's and the customer origins the account lets embed the flow (`allowed_origins`):
 * inline `<verify-flow>` runs the ceremony in the customer's page, whose origin the browser allows
 * when its host is under the rp id or listed in `/.well-known/webauthn` (related origins).
 */
export function relyingParty(publicUrl: string, embedOrigins: readonly string[] = []): { rpId: string; origins: string[] } {
  const url = new URL(publicUrl);
  return { rpId: url.hostname, origins: [...new Set([url.origin, ...embedOrigins])] };
}
