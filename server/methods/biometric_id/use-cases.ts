import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeyOptions, PasskeyVerifyRequest } from '../../../src/api/contract.js';
import type { MethodResult } from '../method.js';
import { keyedHash, safeEqual, sha256Hex } from '../../crypto/tokens.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { allowedOrigins } from '../../http/hosted/security-headers.js';
import { linkBase } from '../../links/link-base.js';
import { sessionErrors } from '../../errors.js';
import type { Authenticated } from '../../session/sessions.js';
import { methodState } from '../../session/state-repo.js';
import { isOpen } from '../../session/status.js';
import { lockVerification, markStarted } from '../../session/verification-repo.js';
import type { AppContext } from '../../context.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import { sqlTimestamp } from '../../timestamps.js';
import type { SessionKit } from '../method.js';
import { advanceCounter, findCredential, findCredentials, saveCredential } from './repo.js';
import type { PasskeyCredentialTable } from './tables.js';
import {
  attemptsLeft,
  challengeProblem,
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEY_MAX_ATTEMPTS,
  PASSKEY_PROMPT_TIMEOUT_MS,
  relyingParty,
  triesUsed,
  type PasskeyState,
} from './rules.js';

/** Spec method id of Biometric ID. */
export const BIOMETRIC_ID_METHOD_ID = 13;

/** The method's state between calls (the pending challenge and the failures counted). */
export const passkeyState = methodState<PasskeyState>('biometric_id');

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** The relying party of this deployment: the host the hosted page is served on, and the origins that embed it. */
export async function deploymentRelyingParty(ctx: AppContext): Promise<{ rpId: string; origins: string[] }> {
  return relyingParty(await linkBase(ctx), await allowedOrigins(ctx));
}

/**
 * `POST /session/methods/biometric_id/options`: a fresh challenge for a registration (no passkey
 * yet) or an assertion (a passkey of this host exists); only its hash is kept, with the session.
 */
export async function passkeyOptions(kit: SessionKit, who: Authenticated): Promise<PasskeyOptions> {
  const { ctx } = kit;
  const { user, session } = who;
  const v = await kit.requireOpen(user, 'biometric_id');
  const now = ctx.clock.now();
  const { rpId } = await deploymentRelyingParty(ctx);
  const credentials = await findCredentials(ctx.db, user.id, rpId);
  const toDescriptor = (c: (typeof credentials)[number]) => ({
    id: c.credential_id,
    transports: JSON.parse(c.transports) as NonNullable<RegistrationResponseJSON['response']['transports']>,
  });
  let result: PasskeyOptions;
  if (credentials.length === 0) {
    const settings = await readSettings(ctx.db);
    const displayName = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
    const options = await generateRegistrationOptions({
      rpName: settings.account_name,
      rpID: rpId,
      userName: user.email,
      userDisplayName: displayName,
      // A stable handle that names no one: the same user re-registering replaces, not duplicates, the passkey.
      userID: Buffer.from(keyedHash(ctx.config.secret, 'passkey-user-handle', String(user.id)), 'hex'),
      // Direct: the attestation statement (its format and the authenticator's AAGUID) is recorded.
      attestationType: 'direct',
      authenticatorSelection: { authenticatorAttachment: 'platform', residentKey: 'preferred', userVerification: 'required' },
      timeout: PASSKEY_PROMPT_TIMEOUT_MS,
    });
    result = { ceremony: 'register', options: { ...options } };
  } else {
    const options = await generateAuthenticationOptions({
      rpID: rpId,
      allowCredentials: credentials.map(toDescriptor),
      userVerification: 'required',
      timeout: PASSKEY_PROMPT_TIMEOUT_MS,
    });
    result = { ceremony: 'assert', options: { ...options } };
  }
  const expiresAt = new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS).toISOString();
  await passkeyState.update(ctx.db, user.id, now, (previous) => {
    const used = triesUsed(previous);
    if (used >= PASSKEY_MAX_ATTEMPTS) throw sessionErrors.attemptsExceeded('Too many failed tries.');
    const next: PasskeyState = {
      challenge_hash: sha256Hex(result.options.challenge),
      ceremony: result.ceremony,
      session_id: session.id,
      expires_at: expiresAt,
      attempts: used,
      locked: false,
    };
    return { next, result: undefined };
  });
  if (v.started_at === null) {
    await markStarted(ctx.db, user.id, v.method_id, now);
    kit.changed(user.id);
  }
  return result;
}

/**
 * What a verified ceremony proved: the verification's attributes (webhooks, the user page) and, for
 * a registration, the passkey to keep. The attestation's signature was checked; its certificate
 * chain is not checked against a vendor root (no metadata service is fetched), and says so.
 */
type Attributes = Record<string, string | number | boolean | null>;
interface Outcome {
  attributes: Attributes;
  credential: PasskeyCredentialTable | null;
}

/**
 * `POST /session/methods/biometric_id/verify`: takes the pending challenge out (single use: a
 * second copy of the same response finds none) and counts a try in the same step, then verifies the
 * ceremony against it. A verified one completes the method; the 5th failure rejects it.
 */
export async function passkeyVerify(kit: SessionKit, who: Authenticated, body: PasskeyVerifyRequest): Promise<MethodResult> {
  const { ctx } = kit;
  const { user, session } = who;
  const v = await kit.requireOpen(user, 'biometric_id');
  const now = ctx.clock.now();
  const taken = await passkeyState.update(ctx.db, user.id, now, (state) => {
    const problem = challengeProblem(state, session.id, now);
    if (problem || !state) {
      throw sessionErrors.challengeExpired(
        problem === 'expired' ? 'The passkey prompt has expired. Try again.' : 'No passkey prompt is waiting for this answer. Try again.',
      );
    }
    const used = triesUsed(state);
    if (used >= PASSKEY_MAX_ATTEMPTS) throw sessionErrors.attemptsExceeded('Too many failed tries.');
    return { next: { ...state, challenge_hash: null, attempts: used + 1, locked: false }, result: state };
  });
  const tries = triesUsed(taken) + 1;
  const expectedChallenge = (c: string) => safeEqual(sha256Hex(c), taken.challenge_hash ?? '');
  const rp = await deploymentRelyingParty(ctx);
  let outcome: Outcome;
  try {
    outcome =
      taken.ceremony === 'register'
        ? await register(kit, user.id, body.credential as unknown as RegistrationResponseJSON, expectedChallenge, rp, now)
        : await assert(kit, user.id, body.credential as unknown as AuthenticationResponseJSON, expectedChallenge, rp, now);
  } catch (error: unknown) {
    if (!(error instanceof PasskeyRefused)) throw error;
    if (tries >= PASSKEY_MAX_ATTEMPTS) {
      await exhaust(kit, user.id, taken.ceremony);
      throw sessionErrors.attemptsExceeded('Too many failed tries.');
    }
    throw sessionErrors.passkeyInvalid(error.message, attemptsLeft(tries));
  }
  await ctx.db.transaction().execute(async (trx) => {
    const current = await lockVerification(trx, user.id, v.method_id);
    if (!current || !isOpen(current.status)) throw sessionErrors.state('This step is already done.');
    if (outcome.credential) await saveCredential(trx, outcome.credential);
    await passkeyState.clear(trx, user.id);
    // Submitted, then decided at once: `verification.pending`, then `verification.completed`.
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing);
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.complete, { attributes: outcome.attributes, remarks: null });
  });
  kit.changed(user.id);
  return kit.result(user, 'biometric_id');
}

/** A ceremony that did not verify: the user's message, never the library's internals. */
class PasskeyRefused extends Error {}

type Rp = { rpId: string; origins: string[] };

/** What both ceremonies check of the browser's response: the challenge, this page's origin and relying party, the user verified. */
function expectations(rp: Rp, expectedChallenge: (c: string) => boolean) {
  return { expectedChallenge, expectedOrigin: rp.origins, expectedRPID: rp.rpId, requireUserVerification: true };
}

async function register(
  kit: SessionKit,
  userId: number,
  response: RegistrationResponseJSON,
  expectedChallenge: (c: string) => boolean,
  rp: Rp,
  now: Date,
): Promise<Outcome> {
  const info = await userVerified(async () => {
    const r = await verifyRegistrationResponse({ response, ...expectations(rp, expectedChallenge) });
    return r.verified ? r.registrationInfo : undefined;
  });
  if (await findCredential(kit.ctx.db, userId, info.credential.id)) throw new PasskeyRefused('This passkey is already registered.');
  const registeredAt = now.toISOString();
  return {
    attributes: {
      proof: 'passkey_registered',
      credential_id: info.credential.id,
      attestation_format: info.fmt,
      aaguid: info.aaguid,
      attestation_root_checked: false,
      user_verified: true,
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp,
      sign_count: info.credential.counter,
      rp_id: rp.rpId,
      registered_at: sqlTimestamp(registeredAt),
    },
    credential: {
      credential_id: info.credential.id,
      user_id: userId,
      rp_id: rp.rpId,
      public_key: b64url(info.credential.publicKey),
      counter: info.credential.counter,
      transports: JSON.stringify(info.credential.transports ?? []),
      aaguid: info.aaguid,
      attestation_format: info.fmt,
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp ? 1 : 0,
      created_at: registeredAt,
      last_used_at: registeredAt,
    },
  };
}

async function assert(
  kit: SessionKit,
  userId: number,
  response: AuthenticationResponseJSON,
  expectedChallenge: (c: string) => boolean,
  rp: Rp,
  now: Date,
): Promise<Outcome> {
  const stored = await findCredential(kit.ctx.db, userId, response.id);
  if (!stored || stored.rp_id !== rp.rpId) throw new PasskeyRefused('This passkey is not the one registered for your verification.');
  const credential = { id: stored.credential_id, publicKey: Buffer.from(stored.public_key, 'base64url'), counter: stored.counter };
  const info = await userVerified(async () => {
    const r = await verifyAuthenticationResponse({ response, credential, ...expectations(rp, expectedChallenge) });
    return r.verified ? r.authenticationInfo : undefined;
  });
  // A counter that did not move forward (a cloned authenticator, or the same assertion twice at once).
  if (!(await advanceCounter(kit.ctx.db, stored.credential_id, stored.counter, info.newCounter, now))) {
    throw new PasskeyRefused('The passkey could not be verified.');
  }
  return {
    attributes: {
      proof: 'passkey_assertion',
      credential_id: stored.credential_id,
      attestation_format: stored.attestation_format,
      aaguid: stored.aaguid,
      attestation_root_checked: false,
      user_verified: true,
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp,
      sign_count: info.newCounter,
      rp_id: rp.rpId,
      registered_at: sqlTimestamp(stored.created_at),
    },
    credential: null,
  };
}

/** The library's reasons, mapped to what the user can act on. */
/**
 * The ceremony's result from `check` (undefined: not verified), refused in the user's words when
 * it failed or when the device did not verify the user.
 */
async function userVerified<T extends { userVerified: boolean }>(check: () => Promise<T | undefined>): Promise<T> {
  let info: T | undefined;
  try {
    info = await check();
  } catch (error: unknown) {
    throw refusal(error);
  }
  if (!info) throw new PasskeyRefused('The passkey could not be verified.');
  if (!info.userVerified) throw new PasskeyRefused('Your device did not confirm it was you (fingerprint, face or PIN).');
  return info;
}

function refusal(error: unknown): PasskeyRefused {
  if (error instanceof PasskeyRefused) return error;
  const text = error instanceof Error ? error.message : '';
  if (/user verification/i.test(text)) return new PasskeyRefused('Your device did not confirm it was you (fingerprint, face or PIN).');
  return new PasskeyRefused('The passkey could not be verified.');
}

/** Rejects the method once its tries ran out. */
async function exhaust(kit: SessionKit, userId: number, ceremony: PasskeyState['ceremony']): Promise<void> {
  const { ctx } = kit;
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const current = await lockVerification(trx, userId, BIOMETRIC_ID_METHOD_ID);
    if (!current || !isOpen(current.status)) return false;
    await passkeyState.update(trx, userId, ctx.clock.now(), (state) => ({
      next: { ...(state ?? lockedState(ceremony)), challenge_hash: null, locked: true },
      result: undefined,
    }));
    await moveVerification(trx, ctx.clock, userId, BIOMETRIC_ID_METHOD_ID, VerificationStatus.processing);
    await moveVerification(trx, ctx.clock, userId, BIOMETRIC_ID_METHOD_ID, VerificationStatus.rejected, {
      attributes: { proof: null, ceremony, attempts: PASSKEY_MAX_ATTEMPTS },
      remarks: 'Too many failed passkey tries.',
    });
    return true;
  });
  if (moved) kit.changed(userId);
}

function lockedState(ceremony: PasskeyState['ceremony']): PasskeyState {
  return { challenge_hash: null, ceremony, session_id: 0, expires_at: new Date(0).toISOString(), attempts: PASSKEY_MAX_ATTEMPTS, locked: true };
}
