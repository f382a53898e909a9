import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../errors.js';
import { isOpen } from '../../session/status.js';
import { lockVerification } from '../../session/verification-repo.js';
import type { UserRow, UserVerificationRow } from '../../store/schema.js';
import type { SessionKit } from '../method.js';
import type { ProvenIdentity } from './client.js';
import type { OidcProvider } from './providers-repo.js';
import { decideEmail, sameEmail } from './rules.js';
import { withSharedAccountCheck } from './shared-account.js';

/** How a step that ends with a provider sign-in records it. */
export interface SignInRecording {
  methodKey: 'social_account' | 'payment_account';
  /** The e-mail the provider's must equal for the step to complete without review. */
  expectedEmail: string | null;
  /** The step's attribute names (each method documents its own). */
  names: { provider: string; issuer: string; subject: string; email: string; emailVerified: string; emailMatches: string; sharedWith: string };
  /** Whether the step is still `assigned` and passes through `processing` (with its event) first. */
  throughProcessing: boolean;
  /**
   * A step waiting in `processing` (the payment account after its code): the `updated_at` of the
   * move that made it wait. A row moved since has a result being processed; it is not overwritten.
   */
  waitingSince?: string | null;
}

/**
 * A sign-in the provider vouched for: the provider account's issuer, subject and e-mail claims are
 * recorded, and the step completes when the provider's verified e-mail is the expected one, else
 * goes to review (rules.ts `decideEmail`), as it does when another user proved the same provider
 * account.
 */
export async function recordSignIn(
  kit: SessionKit,
  user: UserRow,
  v: UserVerificationRow,
  identity: ProvenIdentity,
  provider: OidcProvider,
  how: SignInRecording,
): Promise<void> {
  const { ctx } = kit;
  const { names } = how;
  const decision = decideEmail(identity, how.expectedEmail);
  const attributes = {
    [names.provider]: provider.name,
    [names.issuer]: identity.issuer,
    [names.subject]: identity.subject,
    [names.email]: identity.email,
    [names.emailVerified]: identity.emailVerified ? 1 : 0,
    [names.emailMatches]: sameEmail(identity.email, how.expectedEmail) ? 1 : 0,
  };
  await ctx.db.transaction().execute(async (trx) => {
    // Held to the end: a second sign-in finished at the same moment finds the step moved on and
    // records nothing (to do for a social account; for the payment account, the `processing` its
    // confirmed code left, not one a recorded sign-in or an operator left).
    const current = await lockVerification(trx, user.id, v.method_id);
    const waiting = how.throughProcessing
      ? current !== undefined && isOpen(current.status)
      : current?.status === VerificationStatus.processing && how.waitingSince !== undefined && current.updated_at === how.waitingSince;
    if (!waiting) throw sessionErrors.state('This step is already done.');
    const checked = await withSharedAccountCheck(trx, ctx, { userId: user.id, methodKey: how.methodKey, identity, decision });
    const next = checked.outcome === 'complete' ? VerificationStatus.complete : VerificationStatus.complete_in_review;
    if (how.throughProcessing) await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing);
    await moveVerification(trx, ctx.clock, user.id, v.method_id, next, {
      attributes: { ...attributes, [names.sharedWith]: checked.sharedWith },
      remarks: checked.remark,
    });
  });
}
