import { v7 as uuidV7 } from 'uuid';
import type { Clock } from '../clock.js';
import { buildEventPayload } from '../domain/event-payload.js';
import type { EventType } from '../domain/verification-rules.js';
import { methodById, type Method, type VerificationStatusValue } from '../domain/catalogue.js';
import type { Executor } from '../store/database.js';
import { insertEvent } from '../store/repos/events-repo.js';
import { findUserById, verificationsForUsers } from '../store/repos/users-repo.js';
import { unsignedResult } from './stored-result.js';

export interface EventInput {
  type: EventType;
  userId: number;
  methodId?: number;
  previousStatus?: string;
}

/**
 * Writes an event to the outbox with its whole payload, built from the state inside the same
 * transaction as the change that caused it (spec 6.3); delivery happens later from the outbox.
 */
export async function recordEvent(trx: Executor, clock: Clock, input: EventInput): Promise<string> {
  const user = await findUserById(trx, input.userId);
  if (!user) throw new Error('recordEvent: user vanished inside its own transaction');
  const verifications = await verificationsForUsers(trx, [user.id]);
  // Time-ordered, so events of one transaction keep their order when sorted by (occurred_at, id).
  const id = uuidV7();
  const occurredAt = clock.now();
  const method = input.methodId === undefined ? undefined : methodById(input.methodId);
  const result = method && input.type !== 'user.status.changed' ? await resultForWebhook(trx, user.id, method) : undefined;
  const payload = buildEventPayload({
    id,
    type: input.type,
    occurredAt,
    user,
    verifications: verifications.map((v) => ({
      method_id: v.method_id,
      status: v.status as VerificationStatusValue,
      attributes: JSON.parse(v.attributes) as Record<string, unknown>,
      started_at: v.started_at,
      completed_at: v.completed_at,
    })),
    ...(input.methodId !== undefined ? { methodId: input.methodId } : {}),
    ...(input.previousStatus !== undefined ? { previousStatus: input.previousStatus } : {}),
    ...(result ? { methodResult: result } : {}),
  });
  await insertEvent(trx, {
    id,
    type: input.type,
    user_id: user.id,
    occurred_at: occurredAt.toISOString(),
    payload: JSON.stringify(payload),
    dispatched_at: null,
  });
  return id;
}

/**
 * The method's result as the customer's `GET /api/users/{id}/verifications/{key}` gives it
 * (issue 23), for the `attributes.result` of a `verification.*` event: status reason, checks,
 * the documents' fields and checks, scores. No image URLs: a signed URL would expire long before
 * a retried delivery arrives; `href` names the endpoint that signs fresh ones.
 */
async function resultForWebhook(trx: Executor, userId: number, method: Method): Promise<Record<string, unknown> | undefined> {
  const r = await unsignedResult(trx, userId, method);
  if (!r) return undefined;
  return {
    status: r.status.key,
    reason: r.reason,
    checks: r.checks,
    documents: r.documents.map(({ blob_key: _unsigned, ...d }) => d),
    scores: r.scores,
    duplicates: r.duplicates,
    href: `/api/users/${userId}/verifications/${method.key}`,
  };
}
