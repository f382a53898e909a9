/**
 * Tables of webhook delivery (migration 0002-webhooks). They are added
 * to the shared `Database` interface by declaration merging so this module owns its own shapes.
 */
import type { Generated, Selectable } from 'kysely';

export interface WebhookEndpointTable {
  id: Generated<number>;
  url: string;
  description: string | null;
  /** JSON array of subscribed event types (spec 6.2). */
  event_types: string;
  /** JSON array of verification method ids to watch, or null for every method. */
  method_ids: string | null;
  /** 1 enabled, 0 disabled (integer on both dialects). */
  enabled: number;
  disabled_reason: string | null;
  disabled_at: string | null;
  /** The newest signing secret (`whsec_<base64>`), sealed (`v1.…`, see crypto/webhook-secrets.ts); signs everything. */
  secret: string;
  /** The secret before the last rotation, sealed; also signs until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  /** Start of the current run of failed attempts with no success since; null when healthy. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export type DeliveryState = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveryTable {
  id: Generated<number>;
  event_id: string;
  endpoint_id: number;
  /** The endpoint's URL at the time, kept for the log after the endpoint is gone. */
  endpoint_url: string;
  event_type: string;
  /** The user the event is about; null for a synthetic test payload. */
  user_id: number | null;
  /** 1 for test identities (spec 6.1) and synthetic test payloads: badged Test. */
  is_test: number;
  state: DeliveryState;
  attempts: number;
  /** The exact body sent (and re-sent); null once retention removed it. */
  payload: string | null;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** When retention removes the body (30 days, 90 for test identities). */
  payload_expires_at: string;
  /** When retention removes the whole record with its attempts (90 days). */
  expires_at: string;
}

export interface WebhookAttemptTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  /** JSON object of the request headers sent. */
  request_headers: string;
  response_status: number | null;
  /** 'success' | 'retry' | 'failed' | 'gone' | 'disabled' */
  outcome: string;
  /** Why it failed when there was no 2xx: timeout, redirect, refused address, connection error… */
  error: string | null;
}

declare module '../store/schema.js' {
  interface Database {
    webhook_endpoints: WebhookEndpointTable;
    webhook_deliveries: WebhookDeliveryTable;
    webhook_attempts: WebhookAttemptTable;
  }
}

export type EndpointRow = Selectable<WebhookEndpointTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;
export type AttemptRow = Selectable<WebhookAttemptTable>;
