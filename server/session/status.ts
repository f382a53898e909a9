import { VerificationStatus } from '../domain/catalogue.js';

/** A status the user can act on: to do, or back to do after a reset. */
export function isOpen(status: number): boolean {
  return status === VerificationStatus.assigned || status === VerificationStatus.reset;
}

/** Submitted: done as far as the flow is concerned (complete, in review, or waiting for analysis). */
export function isSubmitted(status: number): boolean {
  return status === VerificationStatus.complete || status === VerificationStatus.complete_in_review || status === VerificationStatus.processing;
}
