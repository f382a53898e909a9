import { VerificationStatus, type UserStatus, type VerificationStatusValue, NOTIFIED_USER_STATUSES } from './catalogue.js';

/**
 * The user status that follows from the user's verifications (architecture.md, "Automatic user
 * status"): Verified when every assigned method is complete; Review when any is in review or
 * rejected; Banned only changes by hand; otherwise the user stays where the journey put them
 * (Unconfirmed until the link is opened, then Active).
 */
export function deriveUserStatus(current: UserStatus, verificationStatuses: readonly VerificationStatusValue[]): UserStatus {
  if (current === 'Banned') return current;
  const live = verificationStatuses.filter((s) => s !== VerificationStatus.removed);
  if (live.length === 0) return current === 'Verified' || current === 'Review' ? 'Active' : current;
  if (live.every((s) => s === VerificationStatus.complete)) return 'Verified';
  if (live.some((s) => s === VerificationStatus.complete_in_review || s === VerificationStatus.rejected)) return 'Review';
  // A method was reset or a new template assigned: a Verified/Review user is back in progress.
  if (current === 'Verified' || current === 'Review') return 'Active';
  return current;
}

/** Whether a status change fires `user.status.changed` (spec 3.1). */
export function firesStatusChanged(previous: UserStatus, next: UserStatus): boolean {
  return previous !== next && NOTIFIED_USER_STATUSES.includes(next);
}
