import { Secret, TOTP } from 'otpauth';
import type { AppContext } from '../context.js';
import type { Executor } from '../store/database.js';
import { openTotpSecret, sealTotpSecret } from '../crypto/seal.js';
import { claimTotpStep, deleteTotp, findTotp, markTotpEnabled, upsertPendingTotp } from './totp-repo.js';

const PERIOD = 30;

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: 'Verity', label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) });
}

/**
 * Starts (or restarts) TOTP set-up for an admin: a fresh 160-bit secret stored sealed and not yet
 * enabled. Returns the otpauth:// URI for the authenticator app and the secret for typing in.
 */
export async function beginTotp(ctx: AppContext, admin: { id: number; email: string }): Promise<{ uri: string; secret: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const now = ctx.clock.now().toISOString();
  const sealed = sealTotpSecret(ctx.config.secret, secret);
  await upsertPendingTotp(ctx.db, admin.id, sealed, now);
  return { uri: totpFor(secret, admin.email).toString(), secret };
}

/**
 * Checks a code against the admin's secret (one step of clock drift either way) and remembers the
 * step so the same code is not accepted twice. `pending` checks a not-yet-enabled set-up.
 */
export async function checkTotp(ctx: AppContext, adminId: number, code: string, pending = false): Promise<boolean> {
  const row = await findTotp(ctx.db, adminId);
  if (!row || (row.enabled_at === null) !== pending) return false;
  if (!/^\d{6}$/.test(code)) return false;
  const timestamp = ctx.clock.now().getTime();
  const delta = totpFor(openTotpSecret(ctx.config.secret, row.sealed_secret), 'x').validate({ token: code, timestamp, window: 1 });
  if (delta === null) return false;
  const counter = Math.floor(timestamp / 1000 / PERIOD) + delta;
  // Claim the step in the same statement that checks it: two requests carrying the same code at
  // once both pass the read above, and only one of them may move the counter.
  return claimTotpStep(ctx.db, adminId, counter);
}

/** Enables a pending set-up once the admin proves it works with a first code. */
export async function enableTotp(ctx: AppContext, adminId: number, code: string, audit?: (trx: Executor) => Promise<void>): Promise<boolean> {
  if (!(await checkTotp(ctx, adminId, code, true))) return false;
  await ctx.db.transaction().execute(async (trx) => {
    await markTotpEnabled(trx, adminId, ctx.clock.now().toISOString());
    await audit?.(trx);
  });
  return true;
}

export async function totpEnabled(ctx: AppContext, adminId: number): Promise<boolean> {
  const row = await findTotp(ctx.db, adminId);
  return row?.enabled_at != null;
}

export async function disableTotp(ctx: AppContext, adminId: number, audit?: (trx: Executor) => Promise<void>): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await deleteTotp(trx, adminId);
    await audit?.(trx);
  });
}

/**
 * The second factor at sign-in: true when the admin has no TOTP enabled, or the code is right.
 * Used by the sign-in route after the password matched.
 */
export async function secondFactorPasses(ctx: AppContext, adminId: number, code: string | undefined): Promise<boolean> {
  if (!(await totpEnabled(ctx, adminId))) return true;
  return code !== undefined && (await checkTotp(ctx, adminId, code));
}
