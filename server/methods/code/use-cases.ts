import { randomInt } from 'node:crypto';
import type { CodeMethodKey, CodeSentResponse } from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { seal } from '../../notify/seal.js';
import { NOTIFY_QUEUE, type NotifyCodeJob } from '../../notify/jobs.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../session/errors.js';
import { maskEmail, maskPhone } from '../../session/masking.js';
import { keyedHash, safeEqual } from '../../session/tokens.js';
import { markStarted } from '../../session/verification-repo.js';
import type { UserRow } from '../../store/schema.js';
import type { MethodResult, SessionKit } from '../method.js';
import { consumeCode, countTry, findCode, saveCode, type CodeRow } from './repo.js';
import { CODE_LENGTH, CODE_MAX_ATTEMPTS, CODE_SEND_WINDOW_MS, CODE_TTL_MS, nextSendAt } from './rules.js';

function codeHash(secret: string, userId: number, key: CodeMethodKey, code: string): string {
  return keyedHash(secret, `code:${userId}:${key}`, code);
}

/** Sends a new code (also the resend); the previous code stops working. */
export async function sendCode(kit: SessionKit, user: UserRow, key: CodeMethodKey, locale: string | null): Promise<CodeSentResponse> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, key);
  if (key === 'phone' && !user.phone) throw sessionErrors.state('No phone number is on file for you.');
  const now = ctx.clock.now();
  const existing = await findCode(ctx.db, user.id, key);
  if (existing) {
    const next = nextSendAt(existing, now);
    if (next > now) throw sessionErrors.resendTooSoon(Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000)));
  }
  const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS).toISOString();
  const newWindow = !existing || new Date(existing.window_started_at).getTime() + CODE_SEND_WINDOW_MS <= now.getTime();
  const row: CodeRow = {
    code_hash: codeHash(ctx.config.secret, user.id, key, code),
    expires_at: expiresAt,
    attempts: 0,
    used_at: null,
    sent_at: now.toISOString(),
    window_started_at: newWindow ? now.toISOString() : existing.window_started_at,
    sends_in_window: newWindow ? 1 : existing.sends_in_window + 1,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await saveCode(trx, user.id, key, row, existing !== undefined);
    if (v.started_at === null) await markStarted(trx, user.id, v.method_id, now);
    const job: NotifyCodeJob = {
      kind: 'code',
      userId: user.id,
      channel: key === 'email' ? 'email' : 'sms',
      sealed: seal(ctx.config.secret, code),
      expiresAt,
      locale: locale ?? '',
    };
    await ctx.queue.enqueue(NOTIFY_QUEUE, job, { maxAttempts: 8 }, trx);
  });
  kit.changed(user.id);
  return {
    destination_masked: key === 'email' ? maskEmail(user.email) : maskPhone(user.phone ?? ''),
    expires_at: expiresAt,
    resend_available_at: nextSendAt(row, now).toISOString(),
    attempts_left: CODE_MAX_ATTEMPTS,
  };
}

/**
 * Checks a code. Every try is counted first with one atomic update (so parallel guesses cannot
 * exceed the limit), the code is single use (consumed with a conditional update), and the 6th try
 * on one code is refused whatever it is.
 */
export async function verifyCode(kit: SessionKit, user: UserRow, key: CodeMethodKey, code: string): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, key);
  const now = ctx.clock.now();
  const row = await findCode(ctx.db, user.id, key);
  if (!row || row.used_at !== null || row.expires_at <= now.toISOString()) throw sessionErrors.codeExpired();
  const attempts = await countTry(ctx.db, user.id, key, row.code_hash);
  if (attempts === undefined) {
    // Either the tries are used up, or a parallel request consumed or replaced the code.
    const fresh = await findCode(ctx.db, user.id, key);
    if (fresh && fresh.used_at === null && fresh.code_hash === row.code_hash && fresh.attempts >= CODE_MAX_ATTEMPTS) throw sessionErrors.attemptsExceeded();
    throw sessionErrors.codeExpired();
  }
  const given = code.trim();
  if (!safeEqual(codeHash(ctx.config.secret, user.id, key, given), row.code_hash)) {
    throw sessionErrors.codeInvalid(Math.max(0, CODE_MAX_ATTEMPTS - attempts));
  }
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, user.id, key, row.code_hash, now))) throw sessionErrors.codeExpired();
    const attributes = key === 'email' ? { email: user.email } : { phone: user.phone };
    // Completing Email stamps email_verified_at (once) in moveVerification.
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.complete, { attributes });
  });
  kit.changed(user.id);
  return kit.result(user, key);
}
