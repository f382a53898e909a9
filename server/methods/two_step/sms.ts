import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { CodeSentResponse, TwoStepSmsRequest } from '../../../src/api/contract.js';
import { sealNotifyCode } from '../../crypto/seal.js';
import { NOTIFY_QUEUE, type NotifyCodeJob } from '../../notify/jobs.js';
import { sessionErrors } from '../../errors.js';
import { maskPhone } from '../../session/masking.js';
import { markStarted } from '../../session/verification-repo.js';
import type { UserRow } from '../../store/schema.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import { findCode } from '../code/repo.js';
import { nextSendAt } from '../code/rules.js';
import { claimSend, draftCode } from '../code/use-cases.js';
import type { SessionKit } from '../method.js';
import { findFactor, savePendingFactor, TWO_STEP_CODE_KEY } from './repo.js';
import { attemptsLeft, TWO_STEP_CODE_LENGTH } from './rules.js';
import { smsCodeHash } from './use-cases.js';

/** A mobile-capable phone number in E.164 with its country calling code, or null. */
export function twoStepPhone(typed: string): { e164: string; countryCode: number } | null {
  const parsed = parsePhoneNumberFromString(typed.trim());
  if (!parsed?.isValid()) return null;
  const type = parsed.getType();
  // Landlines cannot receive a text; an unknown type (many numbering plans) is let through.
  if (type === 'FIXED_LINE' || type === 'VOIP' || type === 'TOLL_FREE' || type === 'PREMIUM_RATE' || type === 'SHARED_COST') return null;
  return { e164: parsed.number, countryCode: Number(parsed.countryCallingCode) };
}

/**
 * `POST /session/methods/two_step/sms/send`: a code by SMS through the notify queue, to the phone
 * being set up, or to the phone already on (a repeat proof). Same limits as the phone step's codes.
 */
export async function sendTwoStepSms(kit: SessionKit, user: UserRow, body: TwoStepSmsRequest, locale: string | null): Promise<CodeSentResponse> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'two_step');
  if (!(await readSettings(ctx.db)).two_step_sms_allowed) throw sessionErrors.state('Codes by SMS are not offered here.');
  const factor = await findFactor(ctx.db, user.id);
  if (factor?.enabled_at && factor.factor !== 'sms')
    throw sessionErrors.state('Two-step authentication is on with an authenticator app: enter a code from it.');
  const proving = factor?.enabled_at != null;
  const phone = proving ? { e164: factor.phone ?? '', countryCode: factor.country_code ?? 0 } : twoStepPhone(body.phone ?? '');
  if (!phone) throw sessionErrors.validation({ phone: ['The phone must be a mobile number in international format, e.g. +447911123456.'] });

  const now = ctx.clock.now();
  const existing = await findCode(ctx.db, user.id, TWO_STEP_CODE_KEY);
  const { code, row } = draftCode(existing, now, TWO_STEP_CODE_LENGTH, (c) => smsCodeHash(ctx.config.secret, user.id, c));
  const expiresAt = row.expires_at;
  await ctx.db.transaction().execute(async (trx) => {
    if (!proving) {
      await savePendingFactor(
        trx,
        user.id,
        { factor: 'sms', sealed_secret: null, phone: phone.e164, country_code: phone.countryCode, pending_expires_at: null },
        now,
      );
    }
    await claimSend(trx, user.id, TWO_STEP_CODE_KEY, row, existing, now);
    if (v.started_at === null) await markStarted(trx, user.id, v.method_id, now);
    const job: NotifyCodeJob = {
      kind: 'code',
      userId: user.id,
      channel: 'sms',
      sealed: sealNotifyCode(ctx.config.secret, code),
      sealedTo: sealNotifyCode(ctx.config.secret, phone.e164),
      expiresAt,
      locale: locale ?? '',
    };
    await ctx.queue.enqueue(NOTIFY_QUEUE, job, { maxAttempts: 8 }, trx);
  });
  kit.changed(user.id);
  const after = await findFactor(ctx.db, user.id);
  return {
    destination_masked: maskPhone(phone.e164),
    expires_at: expiresAt,
    resend_available_at: nextSendAt(row, now).toISOString(),
    attempts_left: attemptsLeft(after?.attempts ?? 0),
  };
}
