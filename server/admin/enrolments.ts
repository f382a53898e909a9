import type { FastifyRequest } from 'fastify';
import type { MethodKey } from '../../src/api/contract.js';
import type { Enrolment } from '../../src/api/admin/users.js';
import type { AppContext } from '../context.js';
import { errors, fieldError } from '../errors.js';
import { methodForKey, SERVER_METHODS } from '../methods/registry.js';
import { findUserById } from '../store/repos/users-repo.js';
import { recordAudit } from './audit.js';

/** One thing a user enrolled (a second factor, passkeys), as the operator's user page lists it. */
export type EnrolmentView = Enrolment;

/** What the user holds for each method that keeps an enrolment, for the user page. */
export async function userEnrolments(ctx: AppContext, userId: number): Promise<EnrolmentView[]> {
  const found = await Promise.all(
    SERVER_METHODS.filter((m) => m.enrolment).map(async (m) => ({ key: m.key, details: await m.enrolment!.describe(ctx.db, ctx, userId) })),
  );
  // Each method's `describe` gives its own details (the contract's union names them per key).
  return found.filter((e) => e.details !== null) as EnrolmentView[];
}

/**
 * An operator removes what the user enrolled for `key` (a lost phone, a compromised device): the
 * verification keeps its status (what was proven then stays proven); the next time the method is
 * assigned, the user enrols anew. One transaction with its audit record (who, which, why).
 */
export async function removeEnrolment(ctx: AppContext, req: FastifyRequest, userId: number, key: string, reason: string): Promise<void> {
  const method = methodForKey(key as MethodKey);
  if (!method?.enrolment) throw fieldError('method', 'This method keeps nothing an operator can remove.');
  const why = reason.trim();
  if (why === '') throw fieldError('reason', 'Say why the enrolment is removed (it is kept in the audit log).');
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await findUserById(trx, userId))) throw errors.userNotFound();
    if (!(await method.enrolment!.remove(trx, ctx, userId))) throw fieldError('method', 'The user has nothing enrolled for this method.');
    await recordAudit(trx, ctx.clock, req, { action: 'user.enrolment_removed', targetType: 'user', targetId: userId, details: { method: key, reason: why } });
  });
}
