import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import type { UserRow } from '../../store/schema.js';
import type { SessionKit } from '../method.js';
import type { ProvenIdentity } from '../oidc/client.js';
import type { OidcProvider } from '../oidc/providers-repo.js';
import { decideEmail, sameEmail } from '../oidc/rules.js';
import { withSharedAccountCheck } from '../oidc/shared-account.js';

/**
 * A sign-in the provider vouched for: the provider account's issuer, subject and e-mail claims are
 * recorded, and the step completes when the provider's verified e-mail is the user's, else goes to
 * review (rules.ts `decideEmail`), as it does when another user proved the same provider account.
 */
export async function applySocialSignIn(kit: SessionKit, user: UserRow, identity: ProvenIdentity, provider: OidcProvider): Promise<void> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'social_account');
  const decision = decideEmail(identity, user.email);
  const attributes = {
    social_provider: provider.name,
    social_issuer: identity.issuer,
    social_subject: identity.subject,
    social_email: identity.email,
    social_email_verified: identity.emailVerified ? 1 : 0,
    social_email_matches: sameEmail(identity.email, user.email) ? 1 : 0,
  };
  await ctx.db.transaction().execute(async (trx) => {
    const checked = await withSharedAccountCheck(trx, ctx, { userId: user.id, methodKey: 'social_account', identity, decision });
    const next = checked.outcome === 'complete' ? VerificationStatus.complete : VerificationStatus.complete_in_review;
    // assigned → processing → the decision, each with its event (verification.pending first).
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing);
    await moveVerification(trx, ctx.clock, user.id, v.method_id, next, {
      attributes: { ...attributes, social_account_shared_with: checked.sharedWith },
      remarks: checked.remark,
    });
  });
}
