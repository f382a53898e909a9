import { isoWithOffset, sqlTimestamp } from '../timestamps.js';
import { friendlyStatus, methodById, type VerificationStatusValue } from './catalogue.js';
import type { EventType } from './verification-rules.js';

/** `spec_version` of every payload we send (architecture.md). */
export const SPEC_VERSION = '2026-01-01';

export interface PayloadUser {
  id: number;
  uuid: string;
  email: string;
  status: string;
  order_id: string | null;
  reference_id: string | null;
  ip: string | null;
  ip_country: string | null;
  last_activity: string | null;
}

export interface PayloadVerification {
  method_id: number;
  status: VerificationStatusValue;
  attributes: Record<string, unknown>;
  started_at: string | null;
  completed_at: string | null;
}

export interface WebhookVerificationEntry {
  id: number;
  name: string;
  status: { value: number; friendly: string };
  attributes: Record<string, unknown>;
  start_time?: string;
  completion_time?: string;
  completed_at?: string;
}

export interface WebhookPayload {
  id: string;
  type: EventType;
  subject: string;
  spec_version: string;
  occurred_at: string;
  resource_id: number;
  relationships: { user_id: number; user_uuid: string };
  data: {
    verification_id: number | null;
    verification_name: string | null;
    email: string;
    user_status: string;
    previous_status?: string;
    order_id: string | null;
    ip: string;
    ip_country: string;
    reference_id: string;
    last_activity: string;
    verifications: WebhookVerificationEntry[];
  };
}

export interface PayloadInput {
  id: string;
  type: EventType;
  occurredAt: Date;
  user: PayloadUser;
  verifications: readonly PayloadVerification[];
  /** The method the event is about; absent for `user.status.changed`. */
  methodId?: number;
  previousStatus?: string;
  /** The event's method's result (checks, fields, scores): rides in that entry's `attributes.result`. */
  methodResult?: Record<string, unknown>;
}

/** Builds the webhook body of spec 6.3 from the state at the moment of the event. */
export function buildEventPayload(input: PayloadInput): WebhookPayload {
  const { user } = input;
  const method = input.methodId === undefined ? undefined : methodById(input.methodId);
  const data: WebhookPayload['data'] = {
    verification_id: method?.id ?? null,
    verification_name: method?.name ?? null,
    email: user.email,
    user_status: user.status,
    order_id: user.order_id,
    ip: user.ip ?? '',
    ip_country: user.ip_country ?? '',
    reference_id: user.reference_id ?? '',
    last_activity: user.last_activity ?? '',
    verifications: input.verifications.map((v) => {
      const entry = toWebhookEntry(v);
      if (input.methodResult && v.method_id === input.methodId) entry.attributes = { ...entry.attributes, result: input.methodResult };
      return entry;
    }),
  };
  if (input.previousStatus !== undefined) data.previous_status = input.previousStatus;
  return {
    id: input.id,
    type: input.type,
    subject: method ? `users/${user.id}/verifications/${method.key}` : `users/${user.id}`,
    spec_version: SPEC_VERSION,
    occurred_at: isoWithOffset(input.occurredAt),
    resource_id: user.id,
    relationships: { user_id: user.id, user_uuid: user.uuid },
    data,
  };
}

function toWebhookEntry(v: PayloadVerification): WebhookVerificationEntry {
  const method = methodById(v.method_id);
  const entry: WebhookVerificationEntry = {
    id: v.method_id,
    name: method?.name ?? String(v.method_id),
    status: { value: v.status, friendly: friendlyStatus(v.status, 'webhook') },
    attributes: v.attributes,
  };
  if (v.started_at) entry.start_time = sqlTimestamp(v.started_at);
  if (v.completed_at) {
    entry.completed_at = sqlTimestamp(v.completed_at).slice(0, 16);
    if (v.started_at) entry.completion_time = describeDuration(Date.parse(v.completed_at) - Date.parse(v.started_at));
  }
  return entry;
}

/** "2 minutes 5 seconds": the spec's "text with duration". */
export function describeDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const parts: string[] = [];
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  let rest = total;
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
  }
  return parts.length ? parts.slice(0, 2).join(' ') : '0 seconds';
}
