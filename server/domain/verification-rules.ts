import { VerificationStatus, type VerificationStatusValue } from './catalogue.js';

export type VerificationEventType = 'verification.pending' | 'verification.in-process' | 'verification.completed' | 'verification.rejected';

export type EventType = VerificationEventType | 'user.status.changed';

export const EVENT_TYPES: readonly EventType[] = [
  'verification.pending',
  'verification.in-process',
  'verification.completed',
  'verification.rejected',
  'user.status.changed',
];

const DONE: readonly number[] = [VerificationStatus.complete, VerificationStatus.complete_in_review];

/**
 * The overall Document / ID status from its workflows (spec 3.2): complete once every workflow
 * is complete or in review; rejected if any is rejected; processing while some but not all are done.
 * A `removed` workflow is no longer one of the user's assigned workflows and does not count; with
 * none left the method is `assigned`, as with no workflows at all.
 *
 * `reviewHolds`: the spec's rule is the customer's (Update Verification: what they mark done is
 * done). When the analysis or a reviewer sent a workflow to review, the method is in review too
 * until someone decides: a customer must never read `complete` for a document the analysis flagged.
 */
export function documentStatusFromWorkflows(
  all: readonly VerificationStatusValue[],
  options: { reviewHolds?: boolean } = {},
): {
  status: VerificationStatusValue;
  partial: boolean;
} {
  const statuses = all.filter((s) => s !== VerificationStatus.removed);
  if (statuses.length === 0) return { status: VerificationStatus.assigned, partial: false };
  if (statuses.every((s) => DONE.includes(s))) {
    const inReview = options.reviewHolds === true && statuses.includes(VerificationStatus.complete_in_review);
    return { status: inReview ? VerificationStatus.complete_in_review : VerificationStatus.complete, partial: false };
  }
  if (statuses.some((s) => s === VerificationStatus.rejected)) return { status: VerificationStatus.rejected, partial: false };
  const done = statuses.filter((s) => DONE.includes(s)).length;
  if (done > 0) return { status: VerificationStatus.processing, partial: true };
  if (statuses.some((s) => s === VerificationStatus.processing)) return { status: VerificationStatus.processing, partial: false };
  if (statuses.every((s) => s === VerificationStatus.reset)) return { status: VerificationStatus.reset, partial: false };
  return { status: VerificationStatus.assigned, partial: false };
}

/**
 * The event a verification status move fires (architecture.md, "Events"). `partial` marks a
 * multi-part method with some but not all parts done.
 */
export function eventForVerificationMove(
  previous: VerificationStatusValue | undefined,
  next: VerificationStatusValue,
  partial = false,
): VerificationEventType | undefined {
  if (partial) return 'verification.in-process';
  if (previous === next) return undefined;
  switch (next) {
    case VerificationStatus.processing:
      return 'verification.pending';
    case VerificationStatus.complete:
      return 'verification.completed';
    case VerificationStatus.rejected:
      return 'verification.rejected';
    default:
      return undefined;
  }
}

/** Only an `assigned` method can be removed (spec 4.6). */
export function isRemovable(status: VerificationStatusValue): boolean {
  return status === VerificationStatus.assigned;
}
