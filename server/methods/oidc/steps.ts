import type { OidcMethodKey } from '../../../src/api/contract.js';
import type { UserRow } from '../../store/schema.js';
import type { SessionKit } from '../method.js';
import { applyPaymentSignIn } from '../payment_account/use-cases.js';
import { applySocialSignIn } from '../social_account/use-cases.js';
import type { ProvenIdentity } from './client.js';
import type { OidcProvider } from './providers-repo.js';

/** What a step does with an identity its provider vouched for (inside the callback). */
export type ApplySignIn = (kit: SessionKit, user: UserRow, identity: ProvenIdentity, provider: OidcProvider) => Promise<void>;

/** The steps proven by a sign-in, and what each makes of one. */
export const SIGN_IN_STEPS: Record<OidcMethodKey, ApplySignIn> = {
  social_account: applySocialSignIn,
  payment_account: applyPaymentSignIn,
};

export function isSignInStep(key: string): key is OidcMethodKey {
  return Object.hasOwn(SIGN_IN_STEPS, key);
}
