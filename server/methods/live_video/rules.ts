import type { LiveVideoDecision } from '../../../src/api/contract.js';
import { VerificationStatus, type VerificationStatusValue } from '../../domain/catalogue.js';

/** Spec method id of Live Video. */
export const LIVE_VIDEO_METHOD_ID = 12;
/** The bus channel that carries signalling and queue notices between processes. */
export const LIVE_VIDEO_CHANNEL = 'live-video';
/** How often a user's socket says it is still there (the queue row's `seen_at`). */
export const HEARTBEAT_MS = 15_000;
/** A queue row not seen for this long belongs to a socket whose process went away: not listed, not picked. */
export const STALE_MS = 3 * HEARTBEAT_MS;
/** How often each process looks for calls past their length limit (`call_ends_at`). */
export const DEADLINE_SWEEP_MS = 1_000;
/** A socket that has not said `hello` by then is closed. */
export const HELLO_TIMEOUT_MS = 10_000;
/** Largest still an agent may upload (a video frame as JPEG is far smaller). */
export const MAX_STILL_BYTES = 4 * 1024 * 1024;
/** Stills per call: enough to document it, not a video by other means. */
export const MAX_STILLS = 20;

/** The status an agent's decision moves the method to. */
export function statusForDecision(decision: LiveVideoDecision['decision']): VerificationStatusValue {
  if (decision === 'approve') return VerificationStatus.complete;
  if (decision === 'reject') return VerificationStatus.rejected;
  return VerificationStatus.complete_in_review;
}

/** The status key the user's widget is told. */
export function statusKeyForDecision(decision: LiveVideoDecision['decision']): 'complete' | 'rejected' | 'complete_in_review' {
  if (decision === 'approve') return 'complete';
  if (decision === 'reject') return 'rejected';
  return 'complete_in_review';
}

/** A rejection or a referral must say why (the customer receives the reason); an approval may. */
export function reasonRequired(decision: LiveVideoDecision['decision']): boolean {
  return decision !== 'approve';
}

/**
 * A token bucket per socket: `capacity` messages at once (a burst of ICE candidates), refilled at
 * `perSecond`. Pure: the caller passes the time.
 */
export class MessageBudget {
  #tokens: number;
  #at: number;
  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.#tokens = capacity;
    this.#at = now;
  }

  /** Takes one message's token; false when the socket is sending faster than allowed. */
  take(now: number): boolean {
    this.#tokens = Math.min(this.capacity, this.#tokens + ((now - this.#at) / 1000) * this.perSecond);
    this.#at = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/** The budget of one signalling socket: 120 messages at once, 20 a second after that. */
export function socketBudget(now: number): MessageBudget {
  return new MessageBudget(120, 20, now);
}
