import type { AppContext } from '../../context.js';
import type { Executor } from '../../store/database.js';
import type { ProvenIdentity } from './client.js';
import { accountHash, recordProvenAccount } from './accounts-repo.js';
import type { EmailDecision } from './rules.js';

/** The decision of a sign-in once the account is known to be another user's too: review, and why. */
export type AccountDecision = EmailDecision & { sharedWith: number[] };

/**
 * Records the provider account a user proved and sends the step to review when other users of
 * the deployment proved the same account (one person, several identities; or a shared account).
 */
export async function withSharedAccountCheck(
  trx: Executor,
  ctx: AppContext,
  input: { userId: number; methodKey: 'social_account' | 'payment_account'; identity: ProvenIdentity; decision: EmailDecision },
): Promise<AccountDecision> {
  const sharedWith = await recordProvenAccount(trx, {
    userId: input.userId,
    methodKey: input.methodKey,
    accountHash: accountHash(ctx.config.secret, input.identity.issuer, input.identity.subject),
    now: ctx.clock.now(),
  });
  if (sharedWith.length === 0) return { ...input.decision, sharedWith };
  const remark = `The same provider account was proven by ${sharedWith.length === 1 ? 'another user' : `${sharedWith.length} other users`} (${sharedWith.join(', ')}).`;
  return { outcome: 'review', remark: input.decision.remark ? `${input.decision.remark} ${remark}` : remark, sharedWith };
}
