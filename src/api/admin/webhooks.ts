/**
 * The dashboard's webhooks contract (`/admin/api/webhooks/...`): endpoints, their signing secrets,
 * the delivery log (bodies masked unless revealed) and retries.
 */
import * as z from 'zod/mini';
import { dataOf } from './common.js';

/** A webhook endpoint (never its secret). */
export const Endpoint = z.object({
  id: z.int(),
  url: z.string(),
  description: z.nullable(z.string()),
  events: z.array(z.string()),
  /** Only verifications of these methods (spec 2.2 ids); null: all. */
  methods: z.nullable(z.array(z.int())),
  enabled: z.boolean(),
  disabled_reason: z.nullable(z.string()),
  disabled_at: z.nullable(z.string()),
  failing_since: z.nullable(z.string()),
  rotation_in_progress: z.boolean(),
  previous_secret_expires_at: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Endpoint = z.infer<typeof Endpoint>;
export const EndpointsAnswer = dataOf(z.array(Endpoint));
export const EndpointAnswer = dataOf(Endpoint);
/** An endpoint with its new signing secret (created, rotated): shown in this answer only. */
export const EndpointWithSecret = z.object({ data: Endpoint, signing_secret: z.string() });
export type EndpointWithSecret = z.infer<typeof EndpointWithSecret>;

/** `POST .../secret/reveal`: the secrets that sign now (the previous one while a rotation overlaps). */
export const RevealedSecret = z.object({
  signing_secret: z.string(),
  previous_signing_secret: z.nullable(z.string()),
  previous_secret_expires_at: z.nullable(z.string()),
});
export type RevealedSecret = z.infer<typeof RevealedSecret>;

/** A delivery's metadata as listed (no body). */
export const Delivery = z.object({
  id: z.int(),
  event_id: z.string(),
  event_type: z.string(),
  endpoint_id: z.int(),
  endpoint_url: z.string(),
  user_id: z.nullable(z.int()),
  test: z.boolean(),
  state: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.int(),
  last_status: z.nullable(z.int()),
  last_error: z.nullable(z.string()),
  next_attempt_at: z.nullable(z.string()),
  created_at: z.string(),
  completed_at: z.nullable(z.string()),
  payload_kept: z.boolean(),
  retryable: z.boolean(),
});
export type Delivery = z.infer<typeof Delivery>;
export const DeliveryAnswer = dataOf(Delivery);

/** `GET /admin/api/webhooks/deliveries`: a page of the delivery log. */
export const DeliveriesPage = z.object({ data: z.array(Delivery), total: z.int(), page: z.int(), per_page: z.int() });
export type DeliveriesPage = z.infer<typeof DeliveriesPage>;

/** One delivery with its body (masked unless revealed; null once expired) and its attempts. */
export const DeliveryDetail = z.extend(Delivery, {
  payload: z.unknown(),
  payload_masked: z.boolean(),
  attempts_log: z.array(
    z.object({
      attempt: z.int(),
      started_at: z.string(),
      finished_at: z.string(),
      duration_ms: z.number(),
      request_headers: z.record(z.string(), z.string()),
      response_status: z.nullable(z.int()),
      outcome: z.string(),
      error: z.nullable(z.string()),
    }),
  ),
});
export type DeliveryDetail = z.infer<typeof DeliveryDetail>;
export const DeliveryDetailAnswer = dataOf(DeliveryDetail);
