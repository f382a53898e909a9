import { randomInt } from 'node:crypto';
import type { CodeMethodKey, CodeSentResponse } from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { sealNotifyCode } from '../../crypto/seal.js';
import { NOTIFY_QUEUE, type NotifyCodeJob } from '../../notify/jobs.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../errors.js';
import { maskEmail, maskPhone } from '../../session/masking.js';
import { keyedHash, safeEqual } from '../../session/tokens.js';
import { markStarted } from '../../session/verification-repo.js';
import type { Executor } from '../../store/database.js';
import type { UserRow, UserVerificationRow } from '../../store/schema.js';
import type { MethodResult, SessionKit } from '../method.js';
import { consumeCode, countTry, findCode, saveCode, type CodeRow, type CodeStoreKey } from './repo.js';
import { CODE_LENGTH, CODE_MAX_ATTEMPTS, CODE_SEND_WINDOW_MS, CODE_TTL_MS, nextSendAt } from './rules.js';

/**
 * Where a code goes and what it proves. The e-mail and phone steps send to the user's own address
 * or number; another method (the payment account's e-mail) names the address, which is bound into
 * the code's hash so that a code sent to one address never proves another.
 */
export interface CodeTarget {
  /** The `verification_codes` row the code lives in (one live code per user and store). */
  store: CodeStoreKey;
  channel: 'email' | 'sms';
  /** An address other than the user's own, sealed into the job; undefined: the user's own. */
  to?: string;
  /** Shown in the answer, e.g. `j***@example.com`. */
  masked: string;
}

function codeHash(secret: string, userId: number, target: Pick<CodeTarget, 'store' | 'to'>, code: string): string {
  // The e-mail and phone codes keep their first label (codes in flight keep working).
  const label = target.to === undefined ? `code:${userId}:${target.store}` : `code:${userId}:${target.store}:${target.to}`;
  return keyedHash(secret, label, code);
}

/**
 * A new code of `length` digits and the row that replaces `existing` (its send window counted
 * on): refused while a resend is too soon. `hash` keys the code for its store.
 */
export function draftCode(existing: CodeRow | undefined, now: Date, length: number, hash: (code: string) => string): { code: string; row: CodeRow } {
  if (existing) {
    const next = nextSendAt(existing, now);
    if (next > now) throw sessionErrors.resendTooSoon(Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000)));
  }
  const code = String(randomInt(0, 10 ** length)).padStart(length, '0');
  const newWindow = !existing || new Date(existing.window_started_at).getTime() + CODE_SEND_WINDOW_MS <= now.getTime();
  const row: CodeRow = {
    code_hash: hash(code),
    expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
    attempts: 0,
    used_at: null,
    sent_at: now.toISOString(),
    window_started_at: newWindow ? now.toISOString() : existing.window_started_at,
    sends_in_window: newWindow ? 1 : existing.sends_in_window + 1,
  };
  return { code, row };
}

/**
 * Stores `row`, drafted from `existing`, as the live code of `store`; refused as a resend too soon
 * when another send stored a code since (two sends at once send one code: the limits hold).
 */
export async function claimSend(trx: Executor, userId: number, store: CodeStoreKey, row: CodeRow, existing: CodeRow | undefined, now: Date): Promise<void> {
  if (await saveCode(trx, userId, store, row, existing)) return;
  const sent = await findCode(trx, userId, store);
  const next = sent ? nextSendAt(sent, now) : new Date(now.getTime() + 1000);
  throw sessionErrors.resendTooSoon(Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000)));
}

/** Sends a new code (also the resend) to `target`; the previous code of its store stops working. */
export async function issueCode(kit: SessionKit, user: UserRow, v: UserVerificationRow, target: CodeTarget, locale: string | null): Promise<CodeSentResponse> {
  const { ctx } = kit;
  const now = ctx.clock.now();
  const existing = await findCode(ctx.db, user.id, target.store);
  const { code, row } = draftCode(existing, now, CODE_LENGTH, (c) => codeHash(ctx.config.secret, user.id, target, c));
  const expiresAt = row.expires_at;
  await ctx.db.transaction().execute(async (trx) => {
    await claimSend(trx, user.id, target.store, row, existing, now);
    if (v.started_at === null) await markStarted(trx, user.id, v.method_id, now);
    const job: NotifyCodeJob = {
      kind: 'code',
      userId: user.id,
      channel: target.channel,
      sealed: sealNotifyCode(ctx.config.secret, code),
      expiresAt,
      locale: locale ?? '',
      ...(target.to !== undefined ? { sealedTo: sealNotifyCode(ctx.config.secret, target.to) } : {}),
    };
    await ctx.queue.enqueue(NOTIFY_QUEUE, job, { maxAttempts: 8 }, trx);
  });
  kit.changed(user.id);
  return {
    destination_masked: target.masked,
    expires_at: expiresAt,
    resend_available_at: nextSendAt(row, now).toISOString(),
    attempts_left: CODE_MAX_ATTEMPTS,
  };
}

/**
 * Checks a code against the live one of `target`. Every try is counted first with one atomic
 * update (so parallel guesses cannot exceed the limit), and the 6th try on one code is refused
 * whatever it is. Returns a function that uses the code up inside the caller's transaction (false
 * when a parallel request used or replaced it first).
 */
export async function checkCode(
  kit: SessionKit,
  user: UserRow,
  target: Pick<CodeTarget, 'store' | 'to'>,
  code: string,
): Promise<(trx: Executor) => Promise<boolean>> {
  const { ctx } = kit;
  const now = ctx.clock.now();
  const row = await findCode(ctx.db, user.id, target.store);
  if (!row || row.used_at !== null || row.expires_at <= now.toISOString()) throw sessionErrors.codeExpired();
  const attempts = await countTry(ctx.db, user.id, target.store, row.code_hash);
  if (attempts === undefined) {
    // Either the tries are used up, or a parallel request consumed or replaced the code.
    const fresh = await findCode(ctx.db, user.id, target.store);
    if (fresh && fresh.used_at === null && fresh.code_hash === row.code_hash && fresh.attempts >= CODE_MAX_ATTEMPTS) throw sessionErrors.attemptsExceeded();
    throw sessionErrors.codeExpired();
  }
  if (!safeEqual(codeHash(ctx.config.secret, user.id, target, code.trim()), row.code_hash)) {
    throw sessionErrors.codeInvalid(Math.max(0, CODE_MAX_ATTEMPTS - attempts));
  }
  return (trx) => consumeCode(trx, user.id, target.store, row.code_hash, now);
}

/** The e-mail or phone step's own target: the user's address or number. */
function ownTarget(user: UserRow, key: CodeMethodKey): CodeTarget {
  return key === 'email'
    ? { store: key, channel: 'email', masked: maskEmail(user.email) }
    : { store: key, channel: 'sms', masked: maskPhone(user.phone ?? '') };
}

/** Sends a new code for the e-mail or phone step (also the resend); the previous code stops working. */
export async function sendCode(kit: SessionKit, user: UserRow, key: CodeMethodKey, locale: string | null): Promise<CodeSentResponse> {
  const v = await kit.requireOpen(user, key);
  if (key === 'phone' && !user.phone) throw sessionErrors.state('No phone number is on file for you.');
  return issueCode(kit, user, v, ownTarget(user, key), locale);
}

/** Checks the e-mail or phone step's code; the code is single use, and the step completes. */
export async function verifyCode(kit: SessionKit, user: UserRow, key: CodeMethodKey, code: string): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, key);
  const consume = await checkCode(kit, user, ownTarget(user, key), code);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consume(trx))) throw sessionErrors.codeExpired();
    const attributes = key === 'email' ? { email: user.email } : { phone: user.phone };
    // Completing Email stamps email_verified_at (once) in moveVerification.
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.complete, { attributes });
  });
  kit.changed(user.id);
  return kit.result(user, key);
}
