import { VerificationStatus } from '../../domain/catalogue.js';
import { methodState } from '../../session/state-repo.js';
import type { Executor } from '../../store/database.js';
import type { UserVerificationRow } from '../../store/schema.js';
import { reopenedAt } from '../oidc/sign-in.js';

/**
 * The Payment Account step's progress (`method_state` under `payment_account`): the address a
 * code was last sent to, and the address proven by a code (then the sign-in may follow).
 */
export interface PaymentState {
  /** Where the live code was sent; the code is bound to it. */
  pending_email: string | null;
  /** The payment account's e-mail once its code was confirmed. */
  verified_email: string | null;
  /** The verification's `updated_at` when the code was confirmed: a later reset makes the state stale. */
  verified_for: string | null;
}

export const paymentState = methodState<PaymentState>('payment_account');

/**
 * The state, unless the step was put back to do (reset, retry) since it was written: then the
 * user starts over and none of it counts.
 */
export async function currentPaymentState(ex: Executor, userId: number, v: UserVerificationRow): Promise<PaymentState | undefined> {
  const state = await paymentState.read(ex, userId);
  if (!state) return undefined;
  const reopened = reopenedAt(v);
  if (reopened === null) return state;
  if (state.verified_email !== null && state.verified_for === reopened) return state;
  // A code sent since the reopening still counts (its address is the pending one).
  return { pending_email: state.pending_email, verified_email: null, verified_for: null };
}

/**
 * Whether the step waits for the payment provider's sign-in: its code was confirmed and the row is
 * still the `processing` that confirmation left (`verified_for` is that move's `updated_at`). A row
 * moved since (the sign-in recorded, or an operator putting a decided step back to `processing`)
 * is not open to a sign-in: a second one would overwrite the result being processed.
 */
export function awaitsSignIn(state: PaymentState | undefined, v: UserVerificationRow): boolean {
  return v.status === VerificationStatus.processing && Boolean(state?.verified_email) && state?.verified_for === v.updated_at;
}
