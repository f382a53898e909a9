import type { MethodKey, MethodView, SessionState, SessionView, VerificationStatusKey } from '../../src/api/contract.js';
import type { AppContext } from '../context.js';
import { methodById, VerificationStatus } from '../domain/catalogue.js';
import type { MethodResult } from '../methods/method.js';
import { methodForId, stepKeyOf } from '../methods/registry.js';
import type { Executor } from '../store/database.js';
import type { UserRow, UserVerificationRow } from '../store/schema.js';
import { readSettings, type AccountSettings } from '../store/repos/settings-repo.js';
import { verificationsForUsers } from '../store/repos/users-repo.js';
import { maskEmail, maskPhone } from './masking.js';
import type { SessionRecord } from './sessions.js';
import { csrfTokenFor } from './sessions.js';
import { flowCompletion } from './state-repo.js';
import { isSubmitted } from './status.js';
import { consentView } from './consent.js';
import { safeHttpUrl } from './safe-url.js';

const STATUS_KEY: Record<number, VerificationStatusKey> = {
  [VerificationStatus.assigned]: 'assigned',
  [VerificationStatus.processing]: 'processing',
  [VerificationStatus.complete]: 'complete',
  [VerificationStatus.rejected]: 'rejected',
  [VerificationStatus.complete_in_review]: 'complete_in_review',
  [VerificationStatus.reset]: 'reset',
};

/**
 * The user's assigned (not removed) verifications in template order, as the flow sees them (a
 * method may show another status than its row: see `ServerMethod.flowStatus`).
 */
export async function assignedVerifications(ex: Executor, userId: number): Promise<UserVerificationRow[]> {
  const rows = (await verificationsForUsers(ex, [userId])).filter((v) => v.status !== VerificationStatus.removed);
  const out: UserVerificationRow[] = [];
  for (const v of rows) {
    const flowStatus = methodForId(v.method_id)?.flowStatus;
    const status = flowStatus ? await flowStatus(ex, userId, v) : v.status;
    out.push(status === v.status ? v : { ...v, status });
  }
  return out;
}

/** The user's verification for a step key (404 when not assigned). */
export async function verificationFor(ex: Executor, userId: number, key: MethodKey): Promise<UserVerificationRow | undefined> {
  return (await assignedVerifications(ex, userId)).find((v) => stepKeyOf(v.method_id) === key);
}

async function canRetry(ctx: AppContext, userId: number, v: UserVerificationRow): Promise<boolean> {
  if (v.status === VerificationStatus.reset) return true;
  if (v.status !== VerificationStatus.rejected) return false;
  return (await methodForId(v.method_id)?.canRetryRejected(ctx, userId)) ?? false;
}

/** The view of one assigned method (contract `MethodView`). */
export async function methodView(ctx: AppContext, user: UserRow, v: UserVerificationRow, settings: AccountSettings): Promise<MethodView> {
  const base = {
    id: v.method_id,
    name: methodById(v.method_id)?.name ?? `Method ${v.method_id}`,
    status: STATUS_KEY[v.status] ?? 'assigned',
    can_retry: await canRetry(ctx, user.id, v),
    reason: v.status === VerificationStatus.rejected ? (v.remarks ?? null) : null,
  };
  const method = methodForId(v.method_id);
  return method ? method.view({ ctx, user, verification: v, settings }, base) : { ...base, key: 'other', needs: {} };
}

/** The flow's overall state from the method statuses and whether completion was called. */
export async function flowState(ex: Executor, userId: number, verifications?: UserVerificationRow[]): Promise<SessionState> {
  const list = verifications ?? (await assignedVerifications(ex, userId));
  const ready = list.length > 0 && list.every((v) => isSubmitted(v.status));
  if (!ready) return 'in_progress';
  const flow = await flowCompletion.read(ex, userId);
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
    consent: await consentView(ctx.db, settings, user.id),
  };
}

/** The view of one method plus the overall state (contract `MethodResult`). */
export async function methodResult(ctx: AppContext, user: UserRow, key: MethodKey): Promise<MethodResult> {
  const settings = await readSettings(ctx.db);
  const verifications = await assignedVerifications(ctx.db, user.id);
  const v = verifications.find((x) => stepKeyOf(x.method_id) === key);
  if (!v) throw new Error(`method ${key} vanished`);
  return { method: await methodView(ctx, user, v, settings), state: await flowState(ctx.db, user.id, verifications) };
}

function hexColour(value: string | null): string | null {
  return value && /^#[0-9a-fA-F]{6}$/.test(value) ? value : null;
}
