import type { TotpEnrolment, TwoStepVerified, TwoStepVerifyRequest } from '../../../src/api/contract.js';
import { sealerFor, SEAL_LABELS } from '../../crypto/seal.js';
import { keyedHash, safeEqual } from '../../crypto/tokens.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../errors.js';
import { isOpen } from '../../session/status.js';
import { lockVerification, markStarted } from '../../session/verification-repo.js';
import type { Executor } from '../../store/database.js';
import type { UserRow } from '../../store/schema.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import { updateUserRow } from '../../store/repos/users-repo.js';
import { sqlTimestamp } from '../../timestamps.js';
import { consumeCode, findCode } from '../code/repo.js';
import type { SessionKit } from '../method.js';
import {
  claimStep,
  enableFactor,
  findFactor,
  lockOnce,
  saveRecoveryCodes,
  savePendingFactor,
  takeTry,
  TWO_STEP_CODE_KEY,
  unlockReopened,
  useRecoveryCode,
  recoveryCodesLeft,
} from './repo.js';
import {
  attemptsLeft,
  newRecoveryCodes,
  newTotpSecret,
  normaliseRecoveryCode,
  TOTP_ENROL_TTL_MS,
  TOTP_PERIOD,
  totpFor,
  totpStep,
  TWO_STEP_CODE_LENGTH,
  TWO_STEP_MAX_ATTEMPTS,
} from './rules.js';
import type { TwoStepFactorTable } from './tables.js';

/** Spec method id of Two-Step Authentication. */
export const TWO_STEP_METHOD_ID = 10;

const totpSealer = (secret: string) => sealerFor(secret, SEAL_LABELS.twoStepTotpSecret);

/** The keyed hash of a normalised recovery code, bound to its user. */
export function recoveryCodeHash(secret: string, userId: number, normalised: string): string {
  return keyedHash(secret, `two-step-recovery:${userId}`, normalised);
}

/** The keyed hash of an SMS code, bound to its user (as the code methods bind theirs). */
export function smsCodeHash(secret: string, userId: number, code: string): string {
  return keyedHash(secret, `code:${userId}:${TWO_STEP_CODE_KEY}`, code);
}

/**
 * `POST /session/methods/two_step/totp`: a new authenticator secret, returned this once and kept
 * only sealed. Asking again replaces the pending one; tries already used stay used.
 */
export async function enrolTotp(kit: SessionKit, user: UserRow): Promise<TotpEnrolment> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'two_step');
  const factor = await findFactor(ctx.db, user.id);
  if (factor?.enabled_at) throw sessionErrors.state('Two-step authentication is already on: enter a code from it.');
  const now = ctx.clock.now();
  const secret = newTotpSecret();
  const expiresAt = new Date(now.getTime() + TOTP_ENROL_TTL_MS).toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await savePendingFactor(
      trx,
      user.id,
      { factor: 'totp', sealed_secret: totpSealer(ctx.config.secret).seal(secret), phone: null, country_code: null, pending_expires_at: expiresAt },
      now,
    );
    if (v.started_at === null) await markStarted(trx, user.id, v.method_id, now);
  });
  kit.changed(user.id);
  const { account_name } = await readSettings(ctx.db);
  return {
    otpauth_uri: totpFor(secret, account_name, user.email).toString(),
    secret,
    digits: TWO_STEP_CODE_LENGTH,
    period: TOTP_PERIOD,
    expires_at: expiresAt,
  };
}

/** What a right code proved, for the verification's attributes. */
interface Proof {
  kind: 'authenticator_enrolled' | 'authenticator_code' | 'recovery_code' | 'sms_enrolled' | 'sms_code';
  driftSteps: number | null;
}

/**
 * `POST /session/methods/two_step/verify`. Every code takes a try first, in one conditional update
 * (parallel codes cannot exceed the limit); a right authenticator code must also claim its time
 * step (a code used once, or sent twice at once, passes once); SMS and recovery codes are used up
 * by a conditional update. The 5th wrong code rejects the method.
 */
export async function verifyTwoStep(kit: SessionKit, user: UserRow, body: TwoStepVerifyRequest): Promise<TwoStepVerified> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'two_step');
  // The method is open: if its tries had run out, someone entitled reopened it.
  await unlockReopened(ctx.db, user.id, v.method_id);
  const factor = await findFactor(ctx.db, user.id);
  if (!factor) throw sessionErrors.state('Set up two-step authentication first.');
  const now = ctx.clock.now();
  precheck(factor, body.channel, now);
  const smsCode = body.channel === 'sms' ? await findCode(ctx.db, user.id, TWO_STEP_CODE_KEY) : undefined;
  if (body.channel === 'sms' && (!smsCode || smsCode.used_at !== null || smsCode.expires_at <= now.toISOString())) throw sessionErrors.codeExpired();

  const tries = await takeTry(ctx.db, user.id);
  if (tries === undefined) {
    await exhaust(kit, user.id, factor);
    throw sessionErrors.attemptsExceeded('Too many wrong codes.');
  }
  const code = body.code.trim();
  let proof: Proof | null = null;
  if (body.channel === 'totp') {
    const step = totpStep(totpSealer(ctx.config.secret).open(factor.sealed_secret ?? ''), code, now);
    if (step !== null) {
      if (!(await claimStep(ctx.db, user.id, step))) throw sessionErrors.codeExpired('That code was already used. Wait for the next one.');
      const drift = step - Math.floor(now.getTime() / 1000 / TOTP_PERIOD);
      proof = { kind: factor.enabled_at ? 'authenticator_code' : 'authenticator_enrolled', driftSteps: drift };
    }
  } else if (body.channel === 'sms') {
    if (smsCode && safeEqual(smsCodeHash(ctx.config.secret, user.id, code), smsCode.code_hash)) {
      if (!(await consumeCode(ctx.db, user.id, TWO_STEP_CODE_KEY, smsCode.code_hash, now))) throw sessionErrors.codeExpired();
      proof = { kind: factor.enabled_at ? 'sms_code' : 'sms_enrolled', driftSteps: null };
    }
  } else {
    const normal = normaliseRecoveryCode(code);
    if (normal !== null && (await useRecoveryCode(ctx.db, user.id, recoveryCodeHash(ctx.config.secret, user.id, normal), now))) {
      proof = { kind: 'recovery_code', driftSteps: null };
    }
  }
  if (!proof) {
    if (tries >= TWO_STEP_MAX_ATTEMPTS) {
      await exhaust(kit, user.id, factor);
      throw sessionErrors.attemptsExceeded('Too many wrong codes.');
    }
    throw sessionErrors.codeInvalid(attemptsLeft(tries));
  }
  const recoveryCodes = proof.kind === 'authenticator_enrolled' ? newRecoveryCodes() : [];
  await ctx.db.transaction().execute(async (trx) => {
    await stillOpen(trx, user.id, v.method_id);
    const enabledAt = factor.enabled_at ?? now.toISOString();
    await enableFactor(trx, user.id, enabledAt);
    if (proof.kind === 'authenticator_enrolled') {
      await saveRecoveryCodes(
        trx,
        user.id,
        recoveryCodes.map((c) => recoveryCodeHash(ctx.config.secret, user.id, normaliseRecoveryCode(c)!)),
      );
    }
    const method = factor.factor === 'sms' ? 'sms' : 'totp';
    await updateUserRow(trx, user.id, {
      two_factor_options: JSON.stringify({ method, enabled_at: sqlTimestamp(enabledAt) }),
      two_factor_phone: method === 'sms' ? factor.phone : null,
      two_factor_country_code: method === 'sms' ? factor.country_code : null,
    });
    // Submitted, then decided at once: `verification.pending`, then `verification.completed`.
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing);
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.complete, {
      attributes: {
        two_factor_method: method,
        proof: proof.kind,
        enabled_at: sqlTimestamp(enabledAt),
        totp_drift_steps: proof.driftSteps,
        recovery_codes_left: method === 'totp' ? await recoveryCodesLeft(trx, user.id) : null,
        two_factor_phone: method === 'sms' ? factor.phone : null,
      },
      remarks: null,
    });
  });
  kit.changed(user.id);
  return { ...(await kit.result(user, 'two_step')), recovery_codes: recoveryCodes };
}

/** Refuses a code that cannot apply to the user's factor before a try is taken. */
function precheck(factor: TwoStepFactorTable, channel: TwoStepVerifyRequest['channel'], now: Date): void {
  if (channel === 'recovery') {
    if (factor.factor !== 'totp' || !factor.enabled_at) throw sessionErrors.state('Recovery codes work only once an authenticator app is on.');
    return;
  }
  if (factor.factor !== channel) throw sessionErrors.state(channel === 'sms' ? 'No code was sent by SMS.' : 'Set up an authenticator app first.');
  if (channel === 'totp' && !factor.enabled_at && (factor.pending_expires_at ?? '') <= now.toISOString()) {
    throw sessionErrors.codeExpired('The set-up has expired. Start again to get a new QR code.');
  }
}

/** Rejects the method once its tries ran out; only the request that locks the factor moves it (one set of events). */
async function exhaust(kit: SessionKit, userId: number, factor: TwoStepFactorTable): Promise<void> {
  const { ctx } = kit;
  const moved = await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockOnce(trx, userId))) return false;
    await moveVerification(trx, ctx.clock, userId, TWO_STEP_METHOD_ID, VerificationStatus.processing);
    await moveVerification(trx, ctx.clock, userId, TWO_STEP_METHOD_ID, VerificationStatus.rejected, {
      attributes: { two_factor_method: factor.factor === 'sms' ? 'sms' : 'totp', proof: null, attempts: TWO_STEP_MAX_ATTEMPTS },
      remarks: 'Too many wrong codes.',
    });
    return true;
  });
  if (moved) kit.changed(userId);
}

/** The method must still be open when a right code completes it (another request may have rejected it). */
async function stillOpen(trx: Executor, userId: number, methodId: number): Promise<void> {
  const current = await lockVerification(trx, userId, methodId);
  if (!current || !isOpen(current.status)) throw sessionErrors.state('This step is already done.');
}
