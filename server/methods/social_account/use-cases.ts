import type { UserRow } from '../../store/schema.js';
import type { SessionKit } from '../method.js';
import type { ProvenIdentity } from '../oidc/client.js';
import type { OidcProvider } from '../oidc/providers-repo.js';
import { recordSignIn } from '../oidc/record-sign-in.js';

/**
 * A sign-in the provider vouched for, recorded under the `social_*` attributes: the step completes
 * when the provider's verified e-mail is the user's, else goes to review. It passes through
 * `processing` first (assigned → processing → the decision, each with its event).
 */
export async function applySocialSignIn(kit: SessionKit, user: UserRow, identity: ProvenIdentity, provider: OidcProvider): Promise<void> {
  const v = await kit.requireOpen(user, 'social_account');
  await recordSignIn(kit, user, v, identity, provider, {
    methodKey: 'social_account',
    expectedEmail: user.email,
    names: {
      provider: 'social_provider',
      issuer: 'social_issuer',
      subject: 'social_subject',
      email: 'social_email',
      emailVerified: 'social_email_verified',
      emailMatches: 'social_email_matches',
      sharedWith: 'social_account_shared_with',
    },
    throughProcessing: true,
  });
}
