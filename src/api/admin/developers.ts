/**
 * The dashboard's developer and activity contract: API keys (`/admin/api/api-keys`), the outbox
 * of the embedded e-mail and SMS senders (`/admin/api/outbox`) and the audit log (`/admin/api/audit`).
 */
import * as z from 'zod/mini';
import { page } from './common.js';

/** An API key as the list shows it (never the key or its hash). */
export const ApiKeyRow = z.object({
  id: z.int(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
  revoked_at: z.nullable(z.string()),
  rate_per_second: z.int(),
  rate_per_minute: z.int(),
});
export type ApiKeyRow = z.infer<typeof ApiKeyRow>;
export const ApiKeysPage = page(ApiKeyRow);

/** `POST /admin/api/api-keys`: the new key's row (in its table's column order) and the whole key, shown this once. */
export const CreatedApiKey = z.object({
  data: z.object({
    id: z.int(),
    name: z.string(),
    prefix: z.string(),
    rate_per_second: z.int(),
    rate_per_minute: z.int(),
    created_at: z.string(),
    last_used_at: z.nullable(z.string()),
    revoked_at: z.nullable(z.string()),
  }),
  key: z.string(),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/** A message the outbox senders wrote instead of sending it. */
export const OutboxMessage = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms']),
  /** E-mail address or E.164 phone number. */
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  /** Absent on messages written before the outbox recorded it (a missing field must not fail the list). */
  locale: z.optional(z.string()),
  created_at: z.string(),
  /** The user the message is for, when it is for one. */
  user_id: z.optional(z.int()),
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;
export const OutboxPage = page(OutboxMessage);

/** One record of the audit log: who did what to which, when, from where. */
export const AuditEntry = z.object({
  id: z.int(),
  admin_id: z.nullable(z.int()),
  admin_email: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.nullable(z.string()),
  details: z.record(z.string(), z.unknown()),
  ip: z.nullable(z.string()),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = page(AuditEntry);
