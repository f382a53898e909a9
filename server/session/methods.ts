import { parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  DOCUMENT_MEDIA_TYPES,
  MAX_UPLOAD_BYTES,
  type DocumentTypeOption,
  type MethodKey,
  type MethodView,
  type SessionState,
  type SessionView,
  type VerificationStatusKey,
} from '../../src/api/contract.js';
import type { AppContext } from '../context.js';
import { DOCUMENT_METHOD_ID, methodById, VerificationStatus } from '../domain/catalogue.js';
import type { Executor } from '../store/database.js';
import type { UserRow, UserVerificationRow } from '../store/schema.js';
import { readSettings, type AccountSettings } from '../store/settings-repo.js';
import { verificationsForUsers, workflowsForUser } from '../store/users-repo.js';
import { KNOWLEDGE_MAX_LENGTH, questionsFor } from './knowledge.js';
import type { SessionRecord } from './sessions.js';
import { csrfTokenFor } from './sessions.js';
import { readState } from './state.js';
import { sdb } from './tables.js';

/** Spec method id → the widget's step key. Selfie is our id 22; a template's Biometric ID (13) is captured the same way. */
const KEY_BY_METHOD_ID: Record<number, MethodKey> = {
  1: 'email',
  2: 'phone',
  3: 'document_id',
  8: 'geolocation',
  13: 'selfie',
  20: 'liveness',
  21: 'knowledge',
  22: 'selfie',
};

/** The step key of a method id, or `other` for methods this page cannot perform. */
export function stepKeyOf(methodId: number): MethodKey | 'other' {
  return KEY_BY_METHOD_ID[methodId] ?? 'other';
}

/** Codes: 6 digits, 10 minutes, 5 tries, a resend after 60 s and at most 5 sends an hour. */
export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_RESEND_MS = 60 * 1000;
export const CODE_SENDS_PER_HOUR = 5;
/** Geolocation submissions allowed (a rejected one may be retried until then). */
export const GEOLOCATION_MAX_ATTEMPTS = 3;

const STATUS_KEY: Record<number, VerificationStatusKey> = {
  [VerificationStatus.assigned]: 'assigned',
  [VerificationStatus.processing]: 'processing',
  [VerificationStatus.complete]: 'complete',
  [VerificationStatus.rejected]: 'rejected',
  [VerificationStatus.complete_in_review]: 'complete_in_review',
  [VerificationStatus.reset]: 'reset',
};

/** A status the user can act on: to do, or back to do after a reset. */
export function isOpen(status: number): boolean {
  return status === VerificationStatus.assigned || status === VerificationStatus.reset;
}

/** Submitted: done as far as the flow is concerned (complete, in review, or waiting for analysis). */
export function isSubmitted(status: number): boolean {
  return status === VerificationStatus.complete || status === VerificationStatus.complete_in_review || status === VerificationStatus.processing;
}

/**
 * The user's assigned (not removed) verifications in template order, as the flow sees them: a
 * Document / ID that is `processing` for one workflow while another of the user's workflows (say,
 * proof of address) still waits for its document is still to do for the user, so it reads
 * `assigned` here (the customer API keeps showing `processing`).
 */
export async function assignedVerifications(ex: Executor, userId: number): Promise<UserVerificationRow[]> {
  const rows = (await verificationsForUsers(ex, [userId])).filter((v) => v.status !== VerificationStatus.removed);
  const doc = rows.find((v) => v.method_id === DOCUMENT_METHOD_ID);
  if (doc?.status !== VerificationStatus.processing) return rows;
  const workflows = await workflowsForUser(ex, userId);
  if (!workflows.some((w) => isOpen(w.status))) return rows;
  return rows.map((v) => (v === doc ? { ...v, status: VerificationStatus.assigned } : v));
}

/** The user's verification for a step key (404 when not assigned). */
export async function verificationFor(ex: Executor, userId: number, key: MethodKey): Promise<UserVerificationRow | undefined> {
  return (await assignedVerifications(ex, userId)).find((v) => stepKeyOf(v.method_id) === key);
}

export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

export function maskPhone(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone);
  const digits = phone.replace(/\D/g, '');
  const tail = digits.slice(-3);
  return parsed ? `+${parsed.countryCallingCode} ••• ••• ${tail}` : `••• ${tail}`;
}

/** Labels and sides of the document types our workflows name. */
const DOCUMENT_TYPES: Record<string, { label: string; sides: 1 | 2 }> = {
  passport: { label: 'Passport', sides: 1 },
  id_card: { label: 'Identity card', sides: 2 },
  driving_licence: { label: 'Driving licence', sides: 2 },
  drivers_license: { label: "Driver's license", sides: 2 },
  residence_permit: { label: 'Residence permit', sides: 2 },
  utility_bill: { label: 'Utility bill', sides: 1 },
  bank_statement: { label: 'Bank statement', sides: 1 },
};

export function documentTypeOption(key: string): DocumentTypeOption {
  const known = DOCUMENT_TYPES[key];
  return { key, label: known?.label ?? key.replace(/_/g, ' '), sides: known?.sides ?? 1 };
}

/** Document types the user may present: those of their assigned, not yet done workflows (all when none is open). */
export async function documentTypesFor(ex: Executor, userId: number): Promise<DocumentTypeOption[]> {
  const workflows = await workflowsForUser(ex, userId);
  const rows = await ex.selectFrom('workflows').select(['raw_id', 'document_types']).execute();
  const open = workflows.filter((w) => isOpen(w.status) || w.status === VerificationStatus.rejected);
  const chosen = open.length ? open : workflows;
  const keys = new Set<string>();
  for (const w of chosen) {
    const row = rows.find((r) => r.raw_id === w.workflow_raw_id);
    for (const t of row ? (JSON.parse(row.document_types) as string[]) : []) keys.add(t);
  }
  return [...keys].map(documentTypeOption);
}

function canRetry(key: MethodKey | 'other', status: number, geoAttempts: number): boolean {
  if (status === VerificationStatus.reset) return true;
  if (status !== VerificationStatus.rejected) return false;
  // Knowledge attempts are limited: once rejected, only the customer or an operator can reset it.
  if (key === 'knowledge' || key === 'other') return false;
  if (key === 'geolocation') return geoAttempts < GEOLOCATION_MAX_ATTEMPTS;
  return true;
}

/** The view of one assigned method (contract `MethodView`). */
export async function methodView(ctx: AppContext, user: UserRow, v: UserVerificationRow, settings: AccountSettings): Promise<MethodView> {
  const key = stepKeyOf(v.method_id);
  const status = STATUS_KEY[v.status] ?? 'assigned';
  const geo = key === 'geolocation' ? await readState(ctx.db, user.id, 'geolocation') : undefined;
  const base = {
    id: v.method_id,
    name: methodById(v.method_id)?.name ?? `Method ${v.method_id}`,
    status,
    can_retry: canRetry(key, v.status, geo?.attempts_used ?? 0),
    reason: v.status === VerificationStatus.rejected ? (v.remarks ?? null) : null,
  };
  const now = ctx.clock.now();
  switch (key) {
    case 'email':
    case 'phone': {
      const code = await sdb(ctx.db)
        .selectFrom('verification_codes')
        .selectAll()
        .where('user_id', '=', user.id)
        .where('method_key', '=', key)
        .executeTakeFirst();
      const live = code !== undefined && code.used_at === null && code.expires_at > now.toISOString();
      const resendAt = code ? nextSendAt(code, now) : null;
      const destination = key === 'email' ? maskEmail(user.email) : user.phone ? maskPhone(user.phone) : '';
      return {
        ...base,
        key,
        needs: {
          destination_masked: destination,
          code_length: CODE_LENGTH,
          code_sent: live,
          resend_available_at: resendAt && resendAt > now ? resendAt.toISOString() : null,
          attempts_left: live ? Math.max(0, CODE_MAX_ATTEMPTS - code.attempts) : CODE_MAX_ATTEMPTS,
        },
      };
    }
    case 'geolocation':
      return {
        ...base,
        key,
        needs: { high_accuracy: true, timeout_ms: 20_000, allowed_countries: settings.allowed_countries?.length ? settings.allowed_countries : null },
      };
    case 'knowledge': {
      const k = settings.knowledge;
      const state = await readState(ctx.db, user.id, 'knowledge');
      const asked = k ? questionsFor(ctx.config.secret, k, user.id) : [];
      return {
        ...base,
        key,
        needs: {
          questions: asked.map((q) => ({
            id: q.id,
            prompt: q.prompt,
            kind: q.kind,
            ...(q.kind === 'choice' ? { choices: q.choices ?? [] } : {}),
            max_length: KNOWLEDGE_MAX_LENGTH[q.kind],
          })),
          pass_threshold: k ? Math.min(k.pass_threshold, asked.length) : 0,
          attempts_left: k ? Math.max(0, k.max_attempts - (state?.attempts_used ?? 0)) : 0,
        },
      };
    }
    case 'document_id': {
      const uploads = await sdb(ctx.db)
        .selectFrom('session_uploads')
        .select(['id', 'document_type', 'side'])
        .where('user_id', '=', user.id)
        .where('method_key', '=', 'document_id')
        .orderBy('created_at', 'desc')
        .execute();
      const newest = new Map<string, { upload_id: string; document_type: string; side: 'front' | 'back' }>();
      for (const u of uploads) {
        const side = u.side === 'back' ? 'back' : 'front';
        const k = `${u.document_type}:${side}`;
        if (!newest.has(k)) newest.set(k, { upload_id: u.id, document_type: u.document_type ?? '', side });
      }
      return {
        ...base,
        key,
        needs: {
          document_types: await documentTypesFor(ctx.db, user.id),
          accepted_media_types: [...DOCUMENT_MEDIA_TYPES],
          max_bytes: MAX_UPLOAD_BYTES - 1,
          uploads: [...newest.values()],
        },
      };
    }
    case 'selfie':
      return { ...base, key, needs: { active_liveness: false } };
    case 'liveness':
      return { ...base, key, needs: { active_liveness: true } };
    default:
      return { ...base, key: 'other', needs: {} };
  }
}

/** When the next code may be sent: 60 s after the last, and not more than 5 in an hour. */
export function nextSendAt(code: { sent_at: string; window_started_at: string; sends_in_window: number }, now: Date): Date {
  const afterLast = new Date(new Date(code.sent_at).getTime() + CODE_RESEND_MS);
  const windowEnd = new Date(new Date(code.window_started_at).getTime() + 60 * 60 * 1000);
  if (code.sends_in_window >= CODE_SENDS_PER_HOUR && windowEnd > now) return windowEnd > afterLast ? windowEnd : afterLast;
  return afterLast;
}

/** The flow's overall state from the method statuses and whether completion was called. */
export async function flowState(ex: Executor, userId: number, verifications?: UserVerificationRow[]): Promise<SessionState> {
  const list = verifications ?? (await assignedVerifications(ex, userId));
  const ready = list.length > 0 && list.every((v) => isSubmitted(v.status));
  if (!ready) return 'in_progress';
  const flow = await readState(ex, userId, '_flow');
  return flow?.completed_at ? 'completed' : 'ready_to_complete';
}

/** Whether the user finished the flow (`POST /session/complete`) and nothing was reopened since. */
export async function flowCompleted(ex: Executor, userId: number): Promise<boolean> {
  return (await flowState(ex, userId)) === 'completed';
}

/** `GET /session` (contract `SessionView`). */
export async function sessionView(ctx: AppContext, user: UserRow, session: SessionRecord): Promise<SessionView> {
  const settings = await readSettings(ctx.db);
  const verifications = await assignedVerifications(ctx.db, user.id);
  const methods: MethodView[] = [];
  for (const v of verifications) methods.push(await methodView(ctx, user, v, settings));
  return {
    user: {
      first_name: user.first_name,
      email_masked: user.email ? maskEmail(user.email) : null,
      phone_masked: user.phone ? maskPhone(user.phone) : null,
    },
    branding: {
      account_name: settings.account_name,
      logo_url: safeHttpUrl(settings.branding.logo_url),
      primary_color: hexColour(settings.branding.primary_color),
      background_color: hexColour(settings.branding.background_color),
      text_color: hexColour(settings.branding.text_color),
    },
    locale: settings.default_locale,
    methods,
    state: await flowState(ctx.db, user.id, verifications),
    csrf_token: csrfTokenFor(ctx.config.secret, session),
    expires_at: session.expiresAt,
    handoff_enabled: settings.handoff_enabled,
    via_handoff: session.viaHandoff,
  };
}

/** The view of one method plus the overall state (contract `MethodResult`). */
export async function methodResult(ctx: AppContext, user: UserRow, key: MethodKey): Promise<{ method: MethodView; state: SessionState }> {
  const settings = await readSettings(ctx.db);
  const verifications = await assignedVerifications(ctx.db, user.id);
  const v = verifications.find((x) => stepKeyOf(x.method_id) === key);
  if (!v) throw new Error(`method ${key} vanished`);
  return { method: await methodView(ctx, user, v, settings), state: await flowState(ctx.db, user.id, verifications) };
}

function hexColour(value: string | null): string | null {
  return value && /^#[0-9a-fA-F]{6}$/.test(value) ? value : null;
}

/** An http(s) URL as text, or null: nothing else (javascript:, data:) leaves the server as a link. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}
