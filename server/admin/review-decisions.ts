import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { DOCUMENT_METHOD_ID, resolveMethod, resolveStatus, VerificationStatus, type VerificationStatusKey } from '../domain/catalogue.js';
import { errors, fieldError } from '../errors.js';
import { recordEvent } from '../services/events.js';
import { moveDocumentWorkflow, moveVerification } from '../services/verifications.js';
import { findWorkflow } from '../store/repos/templates-repo.js';
import { findUserById, findUserVerification, workflowsForUser } from '../store/repos/users-repo.js';
import { notifyProgress } from '../session/progress.js';
import { recordAudit } from './audit.js';

/** A reviewer's decision on one method of a user, as the dashboard sends it. */
export interface ReviewDecisionInput {
  method: string | number;
  status: 'complete' | 'rejected' | 'reset' | 'complete_in_review' | 'assigned';
  workflow_id?: string | undefined;
  reason?: string | undefined;
  remarks?: string | undefined;
}

/** What the customer reads of a decision: `attributes.review` of the verification and its events. */
const DECISION_WORDS: Partial<Record<VerificationStatusKey, string>> = { complete: 'approved', rejected: 'rejected', reset: 'redo_requested' };

/** Decisions that take something from the user must say why (the customer passes it on). */
const REASON_REQUIRED = new Set<string>(['rejected', 'reset']);

/**
 * Applies a reviewer's decision (approve, reject, ask for a redo, or another status) to one method
 * of a user, in one transaction with its audit record (who, what, why). The reason is stored on
 * the verification as `attributes.review` and as its remarks, so it rides in the `verification.*`
 * webhook the move fires. A redo fires no status event of its own (reset is not one of the spec's
 * events), so it is announced as `verification.pending`: the method is open again for the user.
 */
export async function decideVerification(ctx: AppContext, req: FastifyRequest, userId: number, input: ReviewDecisionInput): Promise<void> {
  const method = resolveMethod(input.method);
  if (!method) throw fieldError('method', 'The selected method is invalid.');
  const next = resolveStatus(input.status)!;
  const reason = (input.reason ?? input.remarks ?? '').trim() || null;
  if (REASON_REQUIRED.has(input.status) && reason === null) throw fieldError('reason', 'Say why: the customer receives this reason.');
  const decidedAt = ctx.clock.now().toISOString();
  const decision = DECISION_WORDS[input.status] ?? input.status;
  const review = { review: { decision, reason, decided_at: decidedAt } };
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await findUserById(trx, userId))) throw errors.userNotFound();
    const from = await findUserVerification(trx, userId, method.id);
    if (!from) throw fieldError('method', 'This verification is not assigned to the user.');
    if (method.id === DOCUMENT_METHOD_ID) {
      // One workflow when named, else every document workflow of the user moves together.
      const targets = input.workflow_id
        ? [await findWorkflow(trx, input.workflow_id)]
        : (await workflowsForUser(trx, userId)).map((w) => ({ raw_id: w.workflow_raw_id }));
      if (targets.length === 0 || targets.some((t) => !t)) throw fieldError('workflow_id', 'The selected workflow is invalid.');
      for (const t of targets) {
        const moved = await moveDocumentWorkflow(trx, ctx.clock, userId, t!.raw_id, next, reason, { reviewHolds: true, attributes: review });
        if (!moved) throw fieldError('workflow_id', 'This document workflow is not assigned to the user.');
      }
    } else {
      await moveVerification(trx, ctx.clock, userId, method.id, next, { remarks: reason, attributes: review });
    }
    if (next === VerificationStatus.reset) await recordEvent(trx, ctx.clock, { type: 'verification.pending', userId, methodId: method.id });
    await recordAudit(trx, ctx.clock, req, {
      action: `verification.${input.status}`,
      targetType: 'user',
      targetId: userId,
      // The reviewer's own words are the "why" of the record; they are written for the customer.
      details: { method: method.key, from: statusKeyOf(from.status), to: input.status, workflow: input.workflow_id ?? null, reason },
    });
  });
  // The user's open pages (and a live video call in progress) learn of it at once.
  notifyProgress(userId);
}

function statusKeyOf(value: number): string {
  return (Object.entries(VerificationStatus).find(([, v]) => v === value)?.[0] as string | undefined) ?? String(value);
}
