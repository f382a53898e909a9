import type { SignInResponse } from '../../../src/api/contract.js';
import { sessionErrors } from '../../errors.js';
import type { UserRow } from '../../store/schema.js';
import type { SessionKit } from '../method.js';
import { findProvider } from '../oidc/providers-repo.js';
import { startSignIn } from '../oidc/sign-in.js';

/** `POST …/social_account/sign-in`: a sign-in with one of the account's social providers. */
export async function startSocialSignIn(kit: SessionKit, user: UserRow, providerId: number, locale: string | null): Promise<SignInResponse> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'social_account');
  const provider = await findProvider(ctx.db, ctx.config.secret, providerId, 'social');
  if (!provider) throw sessionErrors.validation({ provider_id: ['This is not a sign-in provider of this step.'] });
  return startSignIn(kit, user, v, 'social_account', provider, locale);
}
