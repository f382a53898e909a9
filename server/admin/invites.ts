import { hashPassword } from '../auth/passwords.js';
import type { AppContext } from '../context.js';
import type { Executor } from '../store/database.js';
import { randomToken, sha256Hex } from '../crypto/tokens.js';
import { adminExists, claimInvite, findInvite, insertAdmin, insertInvite } from './invites-repo.js';
import { isUniqueViolation } from '../store/unique-violation.js';

/** Invitations are valid this long. */
export const INVITE_HOURS = 72;
/** Shortest admin password accepted (NIST 800-63B asks for at least 8; admins get more). */
export const MIN_ADMIN_PASSWORD = 12;

/** Creates an invitation; the token is returned once (for the link) and stored only hashed. */
export async function createInvite(
  ctx: AppContext,
  email: string,
  invitedBy: number,
  audit?: (trx: Executor, expiresAt: string) => Promise<void>,
): Promise<{ token: string; expiresAt: string; url: string }> {
  const token = randomToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + INVITE_HOURS * 3_600_000).toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await insertInvite(trx, { tokenHash: sha256Hex(token), email: email.trim().toLowerCase(), invitedBy, createdAt: now.toISOString(), expiresAt });
    await audit?.(trx, expiresAt);
  });
  return { token, expiresAt, url: `${ctx.config.baseUrl}/admin/invite#${token}` };
}

export type AcceptResult = { ok: true; adminId: number; email: string } | { ok: false; reason: 'invalid' | 'taken' };

/**
 * Accepts an invitation: creates the admin with the chosen password; the token is single use.
 * `audit` writes the record of the new admin inside the same transaction.
 */
export async function acceptInvite(
  ctx: AppContext,
  token: string,
  password: string,
  audit?: (trx: Executor, admin: { id: number; email: string }) => Promise<void>,
): Promise<AcceptResult> {
  const hash = await hashPassword(password);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const now = ctx.clock.now().toISOString();
      const invite = await findInvite(trx, sha256Hex(token));
      if (!invite || invite.used_at !== null || invite.expires_at <= now) return { ok: false, reason: 'invalid' } as const;
      // Claimed before anything else is looked at: a second accept at the same moment waits here for the
      // first to commit, then finds the link used (on PostgreSQL it would otherwise see the first's admin).
      if (!(await claimInvite(trx, invite.token_hash, now))) return { ok: false, reason: 'invalid' } as const;
      // Rolled back, claim included: the link stays as it was for an address that is already an admin.
      if (await adminExists(trx, invite.email)) throw new AdminTaken();
      const id = await insertAdmin(trx, invite.email, hash, now);
      await audit?.(trx, { id, email: invite.email });
      return { ok: true, adminId: id, email: invite.email } as const;
    });
  } catch (error) {
    // Two invitations for one address accepted at once: the second insert meets the first's unique e-mail.
    if (error instanceof AdminTaken || isUniqueViolation(error, 'admins', 'email')) return { ok: false, reason: 'taken' };
    throw error;
  }
}

class AdminTaken extends Error {}
