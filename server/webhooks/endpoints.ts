import { EVENT_TYPES, type EventType } from '../domain/verification-rules.js';
import { methodById } from '../domain/catalogue.js';
import type { Executor } from '../store/database.js';
import type { EndpointRow } from './schema.js';
import { openSigningSecret, sealSigningSecret } from '../crypto/webhook-secrets.js';
import { generateSigningSecret } from './signing.js';
import { privateTargetReason, type ResolveAll } from './address-guard.js';
import { findEndpoint, insertEndpoint, patchEndpoint } from './endpoints-repo.js';

/** An endpoint as the admin API and CLI show it: never with its secrets. */
export interface EndpointView {
  id: number;
  url: string;
  description: string | null;
  events: EventType[];
  /** Verification method ids watched; null means every method. */
  methods: number[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: string | null;
  failing_since: string | null;
  /** True while a rotated-out secret still signs. */
  rotation_in_progress: boolean;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export class EndpointInputError extends Error {
  override name = 'EndpointInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Default overlap during which a rotated-out secret still signs. */
export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 3_600_000;

export function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EndpointInputError('url', 'The url must be an absolute http(s) URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new EndpointInputError('url', 'The url must use http or https.');
  if (url.username || url.password) throw new EndpointInputError('url', 'The url must not carry credentials.');
  if (raw.length > 2000) throw new EndpointInputError('url', 'The url is too long.');
  return url.toString();
}

/**
 * Refuses, when private webhooks are not allowed, a URL whose deliveries would be refused for
 * where it leads (`privateTargetReason`, the delivery's own check). Async (it resolves the name),
 * so savers call it before their transaction.
 */
export async function checkUrlTarget(url: string, allowPrivate: boolean, resolve?: ResolveAll): Promise<void> {
  if (allowPrivate) return;
  const reason = await privateTargetReason(url, resolve);
  if (reason) throw new EndpointInputError('url', `${reason} Webhooks may not reach private networks (VERITY_ALLOW_PRIVATE_WEBHOOKS=true allows it).`);
}

export function checkEvents(events: readonly string[] | undefined): EventType[] {
  if (events === undefined || events.length === 0) return [...EVENT_TYPES];
  const out: EventType[] = [];
  for (const e of events) {
    const t = EVENT_TYPES.find((k) => k === e);
    if (!t) throw new EndpointInputError('events', `Unknown event type: ${e}`);
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

export function checkMethods(methods: readonly number[] | null | undefined): number[] | null {
  if (methods === undefined || methods === null || methods.length === 0) return null;
  for (const m of methods) if (!methodById(m)) throw new EndpointInputError('methods', `Unknown verification method: ${m}`);
  return [...new Set(methods)];
}

export function endpointView(row: EndpointRow, now: Date): EndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.event_types) as EventType[],
    methods: row.method_ids === null ? null : (JSON.parse(row.method_ids) as number[]),
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    failing_since: row.failing_since,
    rotation_in_progress: activePreviousSecret(row, now) !== null,
    previous_secret_expires_at: activePreviousSecret(row, now) !== null ? row.previous_secret_expires_at : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The stored (sealed) previous secret while it still signs. */
function activePreviousSecret(row: EndpointRow, now: Date): string | null {
  if (!row.previous_secret || !row.previous_secret_expires_at) return null;
  return row.previous_secret_expires_at > now.toISOString() ? row.previous_secret : null;
}

/**
 * The clear secrets that sign now, newest first, opened with the server secret. Throws
 * SigningSecretError when one cannot be opened (VERITY_SECRET changed): never signs with garbage.
 */
export function signingSecrets(row: EndpointRow, now: Date, serverSecret: string): string[] {
  const current = openSigningSecret(serverSecret, row.secret, row.id);
  const previous = activePreviousSecret(row, now);
  return previous ? [current, openSigningSecret(serverSecret, previous, row.id)] : [current];
}

export interface CreateEndpointInput {
  url: string;
  events?: readonly string[] | undefined;
  methods?: readonly number[] | null | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
}

/**
 * Creates an endpoint with a fresh secret, stored sealed under `serverSecret` (VERITY_SECRET); the
 * caller shows the clear secret once.
 */
export async function createEndpoint(ex: Executor, input: CreateEndpointInput, now: Date, serverSecret: string): Promise<{ row: EndpointRow; secret: string }> {
  const secret = generateSigningSecret();
  const iso = now.toISOString();
  const row = await insertEndpoint(ex, {
    url: checkUrl(input.url),
    description: input.description ?? null,
    event_types: JSON.stringify(checkEvents(input.events)),
    method_ids: jsonOrNull(checkMethods(input.methods)),
    enabled: input.enabled === false ? 0 : 1,
    disabled_reason: input.enabled === false ? 'disabled by an admin' : null,
    disabled_at: input.enabled === false ? iso : null,
    secret: sealSigningSecret(serverSecret, secret),
    previous_secret: null,
    previous_secret_expires_at: null,
    failing_since: null,
    created_at: iso,
    updated_at: iso,
  });
  return { row, secret };
}

export interface UpdateEndpointInput {
  url?: string | undefined;
  events?: readonly string[] | undefined;
  methods?: readonly number[] | null | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
}

export async function updateEndpoint(ex: Executor, id: number, input: UpdateEndpointInput, now: Date): Promise<EndpointRow | undefined> {
  const iso = now.toISOString();
  const patch: Partial<Omit<EndpointRow, 'id'>> = { updated_at: iso };
  if (input.url !== undefined) patch.url = checkUrl(input.url);
  if (input.events !== undefined) patch.event_types = JSON.stringify(checkEvents(input.events));
  if (input.methods !== undefined) patch.method_ids = jsonOrNull(checkMethods(input.methods));
  if (input.description !== undefined) patch.description = input.description;
  if (input.enabled === true) Object.assign(patch, { enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null });
  if (input.enabled === false) Object.assign(patch, { enabled: 0, disabled_reason: 'disabled by an admin', disabled_at: iso });
  return patchEndpoint(ex, id, patch);
}

/**
 * Rotates the secret: the new one signs from now on; the old one also signs (Standard Webhooks
 * header) for `overlapMs`, so receivers can switch without losing deliveries. The old one moves
 * over still sealed; with an overlap it must open under `serverSecret`, or the overlap would sign
 * with a secret nobody can use (a rotation without overlap replaces an unreadable secret).
 */
export async function rotateSecret(
  ex: Executor,
  id: number,
  now: Date,
  serverSecret: string,
  overlapMs = DEFAULT_ROTATION_OVERLAP_MS,
): Promise<{ row: EndpointRow; secret: string } | undefined> {
  // The write names the secret it read: of two rotations at once, the later one keeps the
  // earlier's new secret as its previous one (both answers still sign), instead of dropping it.
  for (let round = 0; round < ROTATION_ROUNDS; round++) {
    const existing = await findEndpoint(ex, id);
    if (!existing) return undefined;
    if (overlapMs > 0) openSigningSecret(serverSecret, existing.secret, existing.id);
    const secret = generateSigningSecret();
    const row = await patchEndpoint(
      ex,
      id,
      {
        secret: sealSigningSecret(serverSecret, secret),
        previous_secret: overlapMs > 0 ? existing.secret : null,
        previous_secret_expires_at: overlapMs > 0 ? new Date(now.getTime() + overlapMs).toISOString() : null,
        updated_at: now.toISOString(),
      },
      existing.secret,
    );
    if (row) return { row, secret };
  }
  throw new Error(`webhook endpoint ${id}: the rotation kept meeting other rotations`);
}

/** Rounds of read-and-retry before a contended rotation gives up; far above real contention. */
const ROTATION_ROUNDS = 20;

function jsonOrNull(v: number[] | null): string | null {
  return v === null ? null : JSON.stringify(v);
}
