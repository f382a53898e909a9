import type { Clock } from '../clock.js';
import { DOCUMENT_METHOD_ID, EMAIL_METHOD_ID, VerificationStatus, type UserStatus, type VerificationStatusValue } from '../domain/catalogue.js';
import { deriveUserStatus, firesStatusChanged } from '../domain/user-status.js';
import { documentStatusFromWorkflows, eventForVerificationMove, isRemovable } from '../domain/verification-rules.js';
import type { Executor } from '../store/database.js';
import { changeUserStatus, findUserById, findUserLocked, findUserVerification, stampEmailVerified, updateUserRow } from '../store/repos/users-repo.js';
import {
  deleteUserWorkflows,
  deleteVerificationRow,
  findVerificationStatus,
  updateUserWorkflow,
  updateVerificationRow,
  verificationStatusesOf,
  workflowStatusesOf,
} from '../store/repos/verifications-repo.js';
import { recordEvent } from './events.js';
import { lockVerification } from '../session/verification-repo.js';

export interface MoveOptions {
  /** Merged into the verification's attributes. */
  attributes?: Record<string, unknown>;
  remarks?: string | null;
  /** Part of a multi-part method done while others remain (fires `verification.in-process`). */
  partial?: boolean;
}

/**
 * Moves one verification of a user to a new status inside a transaction: timestamps, the event
 * it fires, and the user status that follows. Every path that changes a verification (the API,
 * the end-user session, analysis, reviewers) goes through here, so the rules hold everywhere.
 * Returns false when the user does not have that method.
 */
export async function moveVerification(
  trx: Executor,
  clock: Clock,
  userId: number,
  methodId: number,
  next: VerificationStatusValue,
  options: MoveOptions = {},
): Promise<boolean> {
  // Held to the end of the transaction (PostgreSQL `FOR UPDATE`): two moves at once of the same row
  // are one after the other, so the later sees the earlier's status and fires no second event.
  const current = await lockVerification(trx, userId, methodId);
  if (!current) return false;
  const now = clock.now().toISOString();
  const previous = current.status as VerificationStatusValue;
  let startedAt = current.started_at;
  let completedAt = current.completed_at;
  if (next === VerificationStatus.assigned || next === VerificationStatus.reset) {
    startedAt = null;
    completedAt = null;
  } else if (next === VerificationStatus.processing) {
    startedAt ??= now;
    completedAt = null;
  } else if (next !== VerificationStatus.removed && previous !== next) {
    startedAt ??= now;
    completedAt = now;
  }
  const attributes = options.attributes ? JSON.stringify({ ...(JSON.parse(current.attributes) as object), ...options.attributes }) : current.attributes;
  await updateVerificationRow(trx, userId, methodId, {
    status: next,
    started_at: startedAt,
    completed_at: completedAt,
    attributes,
    updated_at: now,
    ...(options.remarks !== undefined ? { remarks: options.remarks } : {}),
  });
  await updateUserRow(trx, userId, { updated_at: now });
  if (methodId === EMAIL_METHOD_ID && next === VerificationStatus.complete && previous !== VerificationStatus.complete) {
    // The address is proven: stamp it once, whatever path completed the method (API, session code).
    await stampEmailVerified(trx, userId, now);
  }

  const eventType = eventForVerificationMove(previous, next, options.partial ?? false);
  if (eventType) await recordEvent(trx, clock, { type: eventType, userId, methodId });
  await refreshUserStatus(trx, clock, userId);
  return true;
}

/** Applies the automatic user status (architecture.md) and fires `user.status.changed` when due. */
export async function refreshUserStatus(trx: Executor, clock: Clock, userId: number): Promise<void> {
  // Held to the end of the transaction: two steps of one user finishing at once derive the status
  // one after the other, the later from the earlier's verifications and status.
  const user = await findUserLocked(trx, userId);
  if (!user) return;
  const statuses = await verificationStatusesOf(trx, userId);
  const previous = user.status as UserStatus;
  const next = deriveUserStatus(
    previous,
    statuses.map((s) => s.status as VerificationStatusValue),
  );
  await setUserStatus(trx, clock, userId, previous, next);
}

/** Sets a user's status and fires the event when the change is one customers hear about. */
export async function setUserStatus(trx: Executor, clock: Clock, userId: number, previous: UserStatus, next: UserStatus): Promise<void> {
  if (previous === next) return;
  // The write names the status it replaces: a caller whose `previous` is stale (another change
  // committed since it read it) changes nothing and fires no second event.
  if (!(await changeUserStatus(trx, userId, previous, next, clock.now().toISOString()))) return;
  if (firesStatusChanged(previous, next)) {
    await recordEvent(trx, clock, { type: 'user.status.changed', userId, previousStatus: previous });
  }
}

/**
 * Sets one document workflow of a user and derives the Document / ID verification from all of
 * them (spec 3.2). Returns false, changing nothing, when the user does not have Document / ID or
 * the workflow is not assigned to the user.
 */
export async function moveDocumentWorkflow(
  trx: Executor,
  clock: Clock,
  userId: number,
  workflowRawId: number,
  status: VerificationStatusValue,
  remarks: string | null,
  /** The analysis or a reviewer moves it: a workflow in review keeps the method in review. */
  options: { reviewHolds?: boolean; attributes?: Record<string, unknown> } = {},
): Promise<boolean> {
  // A workflow left over from a removed Document / ID is not the user's to move.
  if (!(await findUserVerification(trx, userId, DOCUMENT_METHOD_ID))) return false;
  const now = clock.now().toISOString();
  const done = status === VerificationStatus.complete || status === VerificationStatus.complete_in_review;
  if (!(await updateUserWorkflow(trx, userId, workflowRawId, { status, remarks, completed_at: done ? now : null, updated_at: now }))) return false;
  const workflows = await workflowStatusesOf(trx, userId);
  const overall = documentStatusFromWorkflows(
    workflows.map((w) => w.status as VerificationStatusValue),
    options,
  );
  const current = workflows.find((w) => w.raw_id === workflowRawId)?.public_id ?? null;
  return moveVerification(trx, clock, userId, DOCUMENT_METHOD_ID, overall.status, {
    partial: overall.partial,
    remarks,
    attributes: { ...options.attributes, workflow: current, workflows: workflows.map((w) => ({ id: w.public_id, status: w.status })) },
  });
}

/**
 * Removes one method from a user inside a transaction (spec 4.6): only while it is removable.
 * Nothing changes unless the answer is `removed`.
 */
export async function removeVerification(
  trx: Executor,
  clock: Clock,
  userId: number,
  methodId: number | undefined,
): Promise<'removed' | 'user_not_found' | 'not_found' | 'not_removable'> {
  if (!(await findUserById(trx, userId))) return 'user_not_found';
  const row = methodId === undefined ? undefined : await findVerificationStatus(trx, userId, methodId);
  if (methodId === undefined || !row) return 'not_found';
  if (!isRemovable(row.status as VerificationStatusValue)) return 'not_removable';
  await deleteVerificationRow(trx, userId, methodId);
  // Every workflow goes with the method, whatever its own status (reset, removed):
  // Document / ID is removable only while it derives to assigned, and none is left to move.
  if (methodId === DOCUMENT_METHOD_ID) await deleteUserWorkflows(trx, userId);
  await updateUserRow(trx, userId, { updated_at: clock.now().toISOString() });
  // Removing the last open method can complete the user.
  await refreshUserStatus(trx, clock, userId);
  return 'removed';
}
