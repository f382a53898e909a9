import type { CodeSentResponse, MethodResult, SignInResponse } from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../errors.js';
import { maskEmail } from '../../session/masking.js';
import type { UserRow } from '../../store/schema.js';
import { checkCode, issueCode, type CodeTarget } from '../code/use-cases.js';
import type { SessionKit } from '../method.js';
import type { ProvenIdentity } from '../oidc/client.js';
import { findProvider, listProviders, type OidcProvider } from '../oidc/providers-repo.js';
import { recordSignIn } from '../oidc/record-sign-in.js';
import { startSignIn } from '../oidc/sign-in.js';
import { findUserVerification } from '../../store/repos/users-repo.js';
import { currentPaymentState, paymentState } from './state.js';

const KEY = 'payment_account';

/** The code goes to the payment account's address, and is bound to it. */
function target(email: string): CodeTarget {
  return { store: KEY, channel: 'email', to: email, masked: maskEmail(email) };
}

/** The account's payment provider, when one is configured (the first, if several). */
export async function paymentProviderId(kit: SessionKit): Promise<number | undefined> {
  return (await listProviders(kit.ctx.db, 'payment'))[0]?.id;
}

/** `POST …/payment_account/send`: a code to the payment account's e-mail (the e-mail step's machinery). */
export async function sendPaymentCode(kit: SessionKit, user: UserRow, email: string, locale: string | null): Promise<CodeSentResponse> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, KEY);
  const state = await currentPaymentState(ctx.db, user.id, v);
  if (state?.verified_email) throw sessionErrors.state('The payment account’s e-mail is confirmed already.');
  const address = email.trim();
  const sent = await issueCode(kit, user, v, target(address), locale);
  await paymentState.write(ctx.db, user.id, { pending_email: address, verified_email: null, verified_for: null }, ctx.clock.now());
  return sent;
}

/**
 * `POST …/payment_account/verify`: a right code proves the address (`payment_email`,
 * `payment_email_verified`, as the spec's example shows). Without a payment provider the step is
 * complete; with one, it is one part of two (`verification.in-process`) until the sign-in.
 */
export async function verifyPaymentCode(kit: SessionKit, user: UserRow, code: string): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, KEY);
  const state = await currentPaymentState(ctx.db, user.id, v);
  if (!state?.pending_email) throw sessionErrors.codeExpired();
  const email = state.pending_email;
  const consume = await checkCode(kit, user, target(email), code);
  const withSignIn = (await paymentProviderId(kit)) !== undefined;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consume(trx))) throw sessionErrors.codeExpired();
    const attributes = { payment_email: email, payment_email_verified: 1 };
    if (withSignIn) await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing, { attributes, partial: true });
    else {
      // assigned → processing → complete, each with its event (verification.pending first).
      await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing);
      await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.complete, { attributes });
    }
    const moved = await findUserVerification(trx, user.id, v.method_id);
    await paymentState.write(trx, user.id, { pending_email: null, verified_email: email, verified_for: moved?.updated_at ?? null }, ctx.clock.now());
  });
  kit.changed(user.id);
  return kit.result(user, KEY);
}

/** `POST …/payment_account/sign-in`: only after the code, and only with the payment provider. */
export async function startPaymentSignIn(kit: SessionKit, user: UserRow, providerId: number, locale: string | null): Promise<SignInResponse> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, KEY);
  const state = await currentPaymentState(ctx.db, user.id, v);
  if (!state?.verified_email) throw sessionErrors.state('Confirm the payment account’s e-mail first.');
  const provider = await findProvider(ctx.db, ctx.config.secret, providerId, 'payment');
  if (!provider) throw sessionErrors.validation({ provider_id: ['This is not the payment provider of this step.'] });
  return startSignIn(kit, user, v, KEY, provider, locale);
}

/**
 * The payment provider vouched for an account: it is recorded, and the step completes when the
 * provider's verified e-mail is the one the code proved, else goes to review.
 */
export async function applyPaymentSignIn(kit: SessionKit, user: UserRow, identity: ProvenIdentity, provider: OidcProvider): Promise<void> {
  const v = await kit.requireOpen(user, KEY);
  const state = await currentPaymentState(kit.ctx.db, user.id, v);
  if (!state?.verified_email) throw sessionErrors.state();
  // The confirmed code already moved the step to `processing`; the sign-in is recorded only while
  // the row is still that move's (checked again holding it).
  await recordSignIn(kit, user, v, identity, provider, {
    methodKey: KEY,
    expectedEmail: state.verified_email,
    waitingSince: state.verified_for,
    names: {
      provider: 'payment_provider',
      issuer: 'payment_provider_issuer',
      subject: 'payment_provider_subject',
      email: 'payment_provider_email',
      emailVerified: 'payment_provider_email_verified',
      emailMatches: 'payment_provider_email_matches',
      sharedWith: 'payment_provider_shared_with',
    },
    throughProcessing: false,
  });
}
