import { randomBytes, randomInt } from 'node:crypto';
import * as z from 'zod/mini';
import {
  CaptureQualityReport,
  DOCUMENT_MEDIA_TYPES,
  FaceEvidence,
  FRAME_MEDIA_TYPES,
  type ChallengeStep,
  type CodeMethodKey,
  type CodeSentResponse,
  type DocumentSubmitRequest,
  type DocumentUploadFields,
  type DocumentUploadResponse,
  type FaceChallenge,
  type FaceFrameFields,
  type FaceMethodKey,
  type GeolocationRequest,
  type KnowledgeRequest,
  type MethodKey,
} from '../../src/api/contract.js';
import { InputErrorCode, isAnalysisInputError } from '../analysis/errors.js';
import type { AppContext } from '../context.js';
import { acceptUpload, type UploadMediaType } from '../uploads/accept-upload.js';
import { DOCUMENT_METHOD_ID, VerificationStatus } from '../domain/catalogue.js';
import { checkMagicLink, magicLinkQuery, refusalOf, type LinkRefusal } from '../links/magic-link.js';
import { NOTIFY_QUEUE } from '../services/users.js';
import { moveDocumentWorkflow, moveVerification, setUserStatus } from '../services/verifications.js';
import type { UserRow } from '../store/schema.js';
import { readSettings } from '../store/settings-repo.js';
import { findUserById, findUserByLinkKey, updateUserRow, workflowsForUser } from '../store/users-repo.js';
import { seal } from '../notify/seal.js';
import type { NotifyCodeJob } from '../notify/worker.js';
import { ANALYSIS_QUEUE, type AnalysisImage, type DocumentAnalysisJob, type FaceAnalysisJob } from './analysis-jobs.js';
import { sessionErrors } from './errors.js';
import { countryOfIp, decideLocation } from './geolocation.js';
import { gradeKnowledge, questionsFor } from './knowledge.js';
import {
  CODE_LENGTH,
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  GEOLOCATION_MAX_ATTEMPTS,
  documentTypesFor,
  flowCompleted,
  isOpen,
  maskEmail,
  maskPhone,
  methodResult,
  nextSendAt,
  verificationFor,
} from './methods.js';
import { notifyProgress } from './progress.js';
import { createSession, type SessionRecord } from './sessions.js';
import { clearState, readState, writeState } from './state.js';
import { sdb } from './tables.js';
import { keyedHash, safeEqual } from './tokens.js';

type MethodResult = Awaited<ReturnType<typeof methodResult>>;

/** Face challenges must be answered within this time. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

function done(ctx: AppContext, userId: number): void {
  ctx.signals.emit('outbox');
  notifyProgress(userId);
}

async function requireOpen(ctx: AppContext, user: UserRow, key: MethodKey) {
  const v = await verificationFor(ctx.db, user.id, key);
  if (!v) throw sessionErrors.notAssigned();
  if (!isOpen(v.status))
    throw sessionErrors.state(v.status === VerificationStatus.rejected ? 'This step was rejected; retry it first.' : 'This step is already done.');
  return v;
}

// ---------------------------------------------------------------------------------------------
// Starting a session
// ---------------------------------------------------------------------------------------------

export type LinkUse = { ok: true; user: UserRow } | { ok: false; refusal: LinkRefusal };

/**
 * Checks a magic link's query (signature in constant time, then expiry, then the user): the same
 * check for `GET /security-verify` and `POST /session/start`. A deleted or banned user's link is
 * "revoked"; which of the two is never said.
 */
export async function checkLink(ctx: AppContext, query: Record<string, unknown>): Promise<LinkUse> {
  const check = checkMagicLink(ctx.config.secret, query, ctx.clock.now());
  if (!check.ok) return { ok: false, refusal: refusalOf(check) };
  const user = await findUserByLinkKey(ctx.db, check.params.key);
  if (!user || user.status === 'Banned') return { ok: false, refusal: 'revoked' };
  return { ok: true, user };
}

/** `POST /session/start`: a new session for the link's user, who becomes Active if still Unconfirmed. */
export async function startFromLink(ctx: AppContext, link: string, ip: string | null): Promise<{ token: string; session: SessionRecord; user: UserRow }> {
  const query = magicLinkQuery(link);
  if (!query) throw sessionErrors.linkInvalid();
  const use = await checkLink(ctx, query);
  if (!use.ok) {
    throw use.refusal === 'expired' ? sessionErrors.linkExpired() : use.refusal === 'revoked' ? sessionErrors.linkRevoked() : sessionErrors.linkInvalid();
  }
  // A completed flow is over: its link must not start a session again (issue 18, point 5).
  if (await flowCompleted(ctx.db, use.user.id)) throw sessionErrors.flowCompleted();
  const now = ctx.clock.now();
  const result = await ctx.db.transaction().execute(async (trx) => {
    const created = await createSession(trx, now, use.user.id, false);
    await updateUserRow(trx, use.user.id, {
      last_login: now.toISOString(),
      last_activity: now.toISOString(),
      ...(ip ? { ip, ip_country: countryOfIp(ip) } : {}),
    });
    const current = await findUserById(trx, use.user.id);
    // architecture.md: Active once the user opens a valid link (the POST from the landing page).
    if (current?.status === 'Unconfirmed') await setUserStatus(trx, ctx.clock, use.user.id, 'Unconfirmed', 'Active');
    return { ...created, user: (await findUserById(trx, use.user.id))! };
  });
  done(ctx, use.user.id);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Start and retry of a method
// ---------------------------------------------------------------------------------------------

/** Records the method's start time (webhook `start_time`); idempotent, not a status change. */
export async function startMethod(ctx: AppContext, user: UserRow, key: MethodKey): Promise<MethodResult> {
  const v = await verificationFor(ctx.db, user.id, key);
  if (!v) throw sessionErrors.notAssigned();
  if (isOpen(v.status) && v.started_at === null) {
    await ctx.db
      .updateTable('user_verifications')
      .set({ started_at: ctx.clock.now().toISOString() })
      .where('user_id', '=', user.id)
      .where('method_id', '=', v.method_id)
      .where('started_at', 'is', null)
      .execute();
  }
  return methodResult(ctx, user, key);
}

/** Puts a rejected method back to `assigned` when the user may try again. */
export async function retryMethod(ctx: AppContext, user: UserRow, key: MethodKey): Promise<MethodResult> {
  const current = await methodResult(ctx, user, key).catch(() => null);
  if (!current) throw sessionErrors.notAssigned();
  if (!current.method.can_retry) throw sessionErrors.state('This step cannot be retried.');
  if (current.method.status === 'reset') return current;
  const v = (await verificationFor(ctx.db, user.id, key))!;
  await ctx.db.transaction().execute(async (trx) => {
    if (key === 'document_id') {
      const workflows = await workflowsForUser(trx, user.id);
      const rejected = workflows.filter((w) => w.status === VerificationStatus.rejected);
      for (const w of rejected) await moveDocumentWorkflow(trx, ctx.clock, user.id, w.workflow_raw_id, VerificationStatus.assigned, null);
      if (rejected.length === 0) await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.assigned, { remarks: null });
    } else {
      await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.assigned, { remarks: null });
    }
    if (key === 'selfie' || key === 'liveness') await clearState(trx, user.id, key);
  });
  done(ctx, user.id);
  return methodResult(ctx, user, key);
}

// ---------------------------------------------------------------------------------------------
// E-mail and SMS codes
// ---------------------------------------------------------------------------------------------

function codeHash(secret: string, userId: number, key: CodeMethodKey, code: string): string {
  return keyedHash(secret, `code:${userId}:${key}`, code);
}

/** Sends a new code (also the resend); the previous code stops working. */
export async function sendCode(ctx: AppContext, user: UserRow, key: CodeMethodKey, locale: string | null): Promise<CodeSentResponse> {
  const v = await requireOpen(ctx, user, key);
  if (key === 'phone' && !user.phone) throw sessionErrors.state('No phone number is on file for you.');
  const now = ctx.clock.now();
  const db = sdb(ctx.db);
  const existing = await db.selectFrom('verification_codes').selectAll().where('user_id', '=', user.id).where('method_key', '=', key).executeTakeFirst();
  if (existing) {
    const next = nextSendAt(existing, now);
    if (next > now) throw sessionErrors.resendTooSoon(Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000)));
  }
  const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS).toISOString();
  const newWindow = !existing || new Date(existing.window_started_at).getTime() + 3_600_000 <= now.getTime();
  const row = {
    code_hash: codeHash(ctx.config.secret, user.id, key, code),
    expires_at: expiresAt,
    attempts: 0,
    used_at: null,
    sent_at: now.toISOString(),
    window_started_at: newWindow ? now.toISOString() : existing.window_started_at,
    sends_in_window: newWindow ? 1 : existing.sends_in_window + 1,
  };
  await ctx.db.transaction().execute(async (trx) => {
    const t = sdb(trx);
    if (existing) await t.updateTable('verification_codes').set(row).where('user_id', '=', user.id).where('method_key', '=', key).execute();
    else
      await t
        .insertInto('verification_codes')
        .values({ user_id: user.id, method_key: key, ...row })
        .execute();
    if (v.started_at === null) {
      await trx
        .updateTable('user_verifications')
        .set({ started_at: now.toISOString() })
        .where('user_id', '=', user.id)
        .where('method_id', '=', v.method_id)
        .execute();
    }
    const job: NotifyCodeJob = {
      kind: 'code',
      userId: user.id,
      channel: key === 'email' ? 'email' : 'sms',
      sealed: seal(ctx.config.secret, code),
      expiresAt,
      locale: locale ?? '',
    };
    await ctx.queue.enqueue(NOTIFY_QUEUE, job, { maxAttempts: 8 }, trx);
  });
  done(ctx, user.id);
  return {
    destination_masked: key === 'email' ? maskEmail(user.email) : maskPhone(user.phone ?? ''),
    expires_at: expiresAt,
    resend_available_at: nextSendAt(row, now).toISOString(),
    attempts_left: CODE_MAX_ATTEMPTS,
  };
}

/**
 * Checks a code. Every try is counted first with one atomic update (so parallel guesses cannot
 * exceed the limit), the code is single use (consumed with a conditional update), and the 6th try
 * on one code is refused whatever it is.
 */
export async function verifyCode(ctx: AppContext, user: UserRow, key: CodeMethodKey, code: string): Promise<MethodResult> {
  const v = await requireOpen(ctx, user, key);
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const db = sdb(ctx.db);
  const row = await db.selectFrom('verification_codes').selectAll().where('user_id', '=', user.id).where('method_key', '=', key).executeTakeFirst();
  if (!row || row.used_at !== null || row.expires_at <= nowIso) throw sessionErrors.codeExpired();
  const counted = await db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('user_id', '=', user.id)
    .where('method_key', '=', key)
    .where('code_hash', '=', row.code_hash)
    .where('attempts', '<', CODE_MAX_ATTEMPTS)
    .where('used_at', 'is', null)
    .returning('attempts')
    .executeTakeFirst();
  if (!counted) {
    // Either the tries are used up, or a parallel request consumed or replaced the code.
    const fresh = await db
      .selectFrom('verification_codes')
      .select(['attempts', 'used_at', 'code_hash'])
      .where('user_id', '=', user.id)
      .where('method_key', '=', key)
      .executeTakeFirst();
    if (fresh && fresh.used_at === null && fresh.code_hash === row.code_hash && fresh.attempts >= CODE_MAX_ATTEMPTS) throw sessionErrors.attemptsExceeded();
    throw sessionErrors.codeExpired();
  }
  const given = code.trim();
  if (!safeEqual(codeHash(ctx.config.secret, user.id, key, given), row.code_hash)) {
    throw sessionErrors.codeInvalid(Math.max(0, CODE_MAX_ATTEMPTS - counted.attempts));
  }
  await ctx.db.transaction().execute(async (trx) => {
    const consumed = await sdb(trx)
      .updateTable('verification_codes')
      .set({ used_at: nowIso })
      .where('user_id', '=', user.id)
      .where('method_key', '=', key)
      .where('code_hash', '=', row.code_hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(consumed.numUpdatedRows) === 0) throw sessionErrors.codeExpired();
    const attributes = key === 'email' ? { email: user.email } : { phone: user.phone };
    // Completing Email stamps email_verified_at (once) in moveVerification.
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.complete, { attributes });
  });
  done(ctx, user.id);
  return methodResult(ctx, user, key);
}

// ---------------------------------------------------------------------------------------------
// Geolocation
// ---------------------------------------------------------------------------------------------

/** Takes the browser's position with the request IP, decides against the allowed area, records both. */
export async function submitGeolocation(ctx: AppContext, user: UserRow, body: GeolocationRequest, ip: string | null): Promise<MethodResult> {
  const v = await requireOpen(ctx, user, 'geolocation');
  const settings = await readSettings(ctx.db);
  const state = (await readState(ctx.db, user.id, 'geolocation')) ?? { attempts_used: 0 };
  if (state.attempts_used >= GEOLOCATION_MAX_ATTEMPTS) throw sessionErrors.attemptsExceeded('Too many location attempts.');
  const decision = decideLocation(body.latitude, body.longitude, settings.allowed_countries);
  const ipCountry = countryOfIp(ip);
  const now = ctx.clock.now();
  const attributes = {
    country: decision.country,
    ip_country: ipCountry,
    // Rounded to about 1 km: enough to show where the user was, no more (minimal PII in webhooks).
    latitude: Math.round(body.latitude * 100) / 100,
    longitude: Math.round(body.longitude * 100) / 100,
    accuracy_m: Math.round(body.accuracy),
    position_time: Number.isFinite(body.timestamp) ? new Date(body.timestamp).toISOString() : null,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await writeState(trx, user.id, 'geolocation', { attempts_used: state.attempts_used + 1 }, now);
    await updateUserRow(trx, user.id, { last_activity: now.toISOString(), ...(ip ? { ip, ip_country: ipCountry } : {}) });
    await moveVerification(trx, ctx.clock, user.id, v.method_id, decision.ok ? VerificationStatus.complete : VerificationStatus.rejected, {
      attributes,
      remarks: decision.ok ? null : decision.reason,
    });
  });
  done(ctx, user.id);
  if (!decision.ok) throw sessionErrors.locationRejected(decision.reason);
  return methodResult(ctx, user, 'geolocation');
}

// ---------------------------------------------------------------------------------------------
// Knowledge
// ---------------------------------------------------------------------------------------------

export async function submitKnowledge(ctx: AppContext, user: UserRow, body: KnowledgeRequest): Promise<MethodResult> {
  const v = await requireOpen(ctx, user, 'knowledge');
  const settings = await readSettings(ctx.db);
  const k = settings.knowledge;
  if (!k || k.questions.length === 0) throw sessionErrors.state('No knowledge questions are configured.');
  const state = (await readState(ctx.db, user.id, 'knowledge')) ?? { attempts_used: 0 };
  if (state.attempts_used >= k.max_attempts) throw sessionErrors.attemptsExceeded('No attempts are left.');
  const asked = questionsFor(ctx.config.secret, k, user.id);
  const correct = gradeKnowledge(ctx.config.secret, asked, body.answers);
  const threshold = Math.min(k.pass_threshold, asked.length);
  const passed = correct >= threshold;
  const used = state.attempts_used + 1;
  const exhausted = !passed && used >= k.max_attempts;
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await writeState(trx, user.id, 'knowledge', { attempts_used: used }, now);
    if (passed || exhausted) {
      await moveVerification(trx, ctx.clock, user.id, v.method_id, passed ? VerificationStatus.complete : VerificationStatus.rejected, {
        attributes: { asked: asked.length, correct, pass_threshold: threshold, attempts: used },
        remarks: passed ? null : 'Not enough answers were correct.',
      });
    }
  });
  done(ctx, user.id);
  if (exhausted) throw sessionErrors.attemptsExceeded('No attempts are left.');
  if (!passed) throw sessionErrors.knowledgeFailed(k.max_attempts - used);
  return methodResult(ctx, user, 'knowledge');
}

// ---------------------------------------------------------------------------------------------
// Uploads: documents and face frames
// ---------------------------------------------------------------------------------------------

/** The media type of an upload by its content (magic bytes), when it is one of `accepted`. */
/** The upload door (size, type by content, image header, PDF limits), in the session API's errors. */
async function accept(bytes: Buffer, accepted: readonly UploadMediaType[]): Promise<UploadMediaType> {
  try {
    return (await acceptUpload(bytes, accepted)).mediaType;
  } catch (err: unknown) {
    if (!isAnalysisInputError(err)) throw err;
    if (err.code === InputErrorCode.TooLarge) throw sessionErrors.uploadTooLarge();
    throw sessionErrors.uploadInvalid(err.message);
  }
}

function parseJsonField<T>(schema: z.ZodMiniType<T>, text: string | undefined, field: string): T | null {
  if (text === undefined || text === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw sessionErrors.validation({ [field]: ['Must be JSON.'] });
  }
  const result = z.safeParse(schema, parsed);
  if (!result.success) throw sessionErrors.validation({ [field]: result.error.issues.map((i) => `${i.path.join('.') || field}: ${i.message}`) });
  return result.data;
}

export async function uploadDocument(ctx: AppContext, user: UserRow, fields: DocumentUploadFields, bytes: Buffer): Promise<DocumentUploadResponse> {
  await requireOpen(ctx, user, 'document_id');
  const types = await documentTypesFor(ctx.db, user.id);
  const type = types.find((t) => t.key === fields.document_type);
  if (!type) throw sessionErrors.validation({ document_type: ['This document type is not accepted here.'] });
  if (fields.side === 'back' && type.sides === 1) throw sessionErrors.validation({ side: ['This document has one side.'] });
  const quality = parseJsonField(CaptureQualityReport, fields.quality, 'quality');
  const mediaType = await accept(bytes, DOCUMENT_MEDIA_TYPES);
  const id = `upl_${randomBytes(12).toString('base64url')}`;
  const blobKey = `users/${user.id}/session/${id.replace(/[^A-Za-z0-9_-]/g, '')}`;
  await ctx.blobs.put(blobKey, bytes, mediaType);
  await sdb(ctx.db)
    .insertInto('session_uploads')
    .values({
      id,
      user_id: user.id,
      method_key: 'document_id',
      document_type: type.key,
      side: fields.side,
      challenge_id: null,
      step_index: null,
      step: null,
      blob_key: blobKey,
      media_type: mediaType,
      size: bytes.length,
      meta: JSON.stringify({ source: fields.source, quality }),
      created_at: ctx.clock.now().toISOString(),
    })
    .execute();
  return { upload_id: id, document_type: type.key, side: fields.side, media_type: mediaType, size: bytes.length };
}

/** Submits reviewed uploads: the document goes to `processing` and an analysis job is enqueued with it. */
export async function submitDocument(ctx: AppContext, user: UserRow, body: DocumentSubmitRequest): Promise<MethodResult> {
  await requireOpen(ctx, user, 'document_id');
  const option = (await documentTypesFor(ctx.db, user.id)).find((t) => t.key === body.document_type);
  if (!option) throw sessionErrors.validation({ document_type: ['This document type is not accepted here.'] });
  const uploads = await sdb(ctx.db).selectFrom('session_uploads').selectAll().where('user_id', '=', user.id).where('method_key', '=', 'document_id').execute();
  const find = (id: string | undefined, side: 'front' | 'back') => uploads.find((u) => u.id === id && u.side === side && u.document_type === option.key);
  const front = find(body.front_upload_id, 'front');
  const back = body.back_upload_id !== undefined ? find(body.back_upload_id, 'back') : undefined;
  const errs: Record<string, string[]> = {};
  if (!front) errs.front_upload_id = ['Unknown upload for this document type and side.'];
  if (option.sides === 2 && !back)
    errs.back_upload_id = [body.back_upload_id ? 'Unknown upload for this document type and side.' : 'This document needs its back too.'];
  if (option.sides === 1 && body.back_upload_id !== undefined) errs.back_upload_id = ['This document has one side.'];
  if (Object.keys(errs).length > 0 || !front) throw sessionErrors.validation(errs);
  const image = (u: typeof front) => {
    const meta = JSON.parse(u.meta) as { source?: 'camera' | 'upload'; quality?: unknown };
    return { uploadId: u.id, blobKey: u.blob_key, mediaType: u.media_type, size: u.size, source: meta.source ?? 'upload', quality: meta.quality ?? null };
  };
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const workflows = await workflowsForUser(trx, user.id);
    const typesOf = new Map(
      (await trx.selectFrom('workflows').select(['raw_id', 'document_types']).execute()).map((w) => [w.raw_id, JSON.parse(w.document_types) as string[]]),
    );
    const open = workflows.filter((w) => isOpen(w.status));
    const workflow = open.find((w) => typesOf.get(w.workflow_raw_id)?.includes(option.key)) ?? open[0] ?? null;
    if (workflow) await moveDocumentWorkflow(trx, ctx.clock, user.id, workflow.workflow_raw_id, VerificationStatus.processing, null);
    else await moveVerification(trx, ctx.clock, user.id, DOCUMENT_METHOD_ID, VerificationStatus.processing);
    const job: DocumentAnalysisJob = {
      kind: 'document',
      userId: user.id,
      methodId: DOCUMENT_METHOD_ID,
      workflowRawId: workflow?.workflow_raw_id ?? null,
      documentType: option.key,
      front: image(front),
      back: back ? image(back) : null,
      submittedAt: now.toISOString(),
    };
    await ctx.queue.enqueue(ANALYSIS_QUEUE, job, { maxAttempts: 5 }, trx);
  });
  done(ctx, user.id);
  return methodResult(ctx, user, 'document_id');
}

const CHALLENGE_MOVES: ChallengeStep[] = ['turn_left', 'turn_right', 'come_closer'];

/** A new randomised challenge (replacing any previous one and its frames). */
export async function newFaceChallenge(ctx: AppContext, user: UserRow, key: FaceMethodKey): Promise<FaceChallenge> {
  await requireOpen(ctx, user, key);
  let steps: ChallengeStep[] = ['look_straight'];
  if (key === 'liveness') {
    const moves = [...CHALLENGE_MOVES];
    for (let i = moves.length - 1; i > 0; i--) {
      const j = randomInt(0, i + 1);
      [moves[i], moves[j]] = [moves[j]!, moves[i]!];
    }
    steps = ['look_straight', ...moves.slice(0, randomInt(2, 4))];
  }
  const now = ctx.clock.now();
  const challenge = { id: `chl_${randomBytes(12).toString('base64url')}`, steps, expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString() };
  const old = await sdb(ctx.db).selectFrom('session_uploads').select(['id', 'blob_key']).where('user_id', '=', user.id).where('method_key', '=', key).execute();
  await ctx.db.transaction().execute(async (trx) => {
    await writeState(trx, user.id, key, { challenge }, now);
    await sdb(trx).deleteFrom('session_uploads').where('user_id', '=', user.id).where('method_key', '=', key).execute();
  });
  for (const o of old) await ctx.blobs.delete(o.blob_key);
  return { challenge_id: challenge.id, steps, expires_at: challenge.expires_at };
}

async function liveChallenge(ctx: AppContext, user: UserRow, key: FaceMethodKey, challengeId: string) {
  const state = await readState(ctx.db, user.id, key);
  const challenge = state?.challenge;
  if (!challenge || !safeEqual(challenge.id, challengeId) || challenge.expires_at <= ctx.clock.now().toISOString()) throw sessionErrors.challengeExpired();
  return challenge;
}

export async function uploadFaceFrame(
  ctx: AppContext,
  user: UserRow,
  key: FaceMethodKey,
  fields: FaceFrameFields,
  bytes: Buffer,
): Promise<{ frame_id: string }> {
  await requireOpen(ctx, user, key);
  const challenge = await liveChallenge(ctx, user, key, fields.challenge_id);
  const index = Number(fields.step_index);
  if (!Number.isSafeInteger(index) || index >= challenge.steps.length || challenge.steps[index] !== fields.step) {
    throw sessionErrors.uploadInvalid('This frame does not answer the expected challenge step.');
  }
  const evidence = parseJsonField(FaceEvidence, fields.evidence, 'evidence');
  if (!evidence) throw sessionErrors.validation({ evidence: ['Required.'] });
  const frames = await sdb(ctx.db)
    .selectFrom('session_uploads')
    .select(['id', 'step_index', 'blob_key'])
    .where('user_id', '=', user.id)
    .where('method_key', '=', key)
    .where('challenge_id', '=', challenge.id)
    .execute();
  for (let i = 0; i < index; i++) {
    if (!frames.some((f) => f.step_index === i)) throw sessionErrors.uploadInvalid('Frames must be sent in step order.');
  }
  const mediaType = await accept(bytes, FRAME_MEDIA_TYPES);
  const id = `frm_${randomBytes(12).toString('base64url')}`;
  const blobKey = `users/${user.id}/session/${id}`;
  await ctx.blobs.put(blobKey, bytes, mediaType);
  const replaced = frames.filter((f) => f.step_index === index);
  await ctx.db.transaction().execute(async (trx) => {
    if (replaced.length)
      await sdb(trx)
        .deleteFrom('session_uploads')
        .where(
          'id',
          'in',
          replaced.map((f) => f.id),
        )
        .execute();
    await sdb(trx)
      .insertInto('session_uploads')
      .values({
        id,
        user_id: user.id,
        method_key: key,
        document_type: null,
        side: null,
        challenge_id: challenge.id,
        step_index: index,
        step: fields.step,
        blob_key: blobKey,
        media_type: mediaType,
        size: bytes.length,
        meta: JSON.stringify(evidence),
        created_at: ctx.clock.now().toISOString(),
      })
      .execute();
  });
  for (const r of replaced) await ctx.blobs.delete(r.blob_key);
  return { frame_id: id };
}

export async function submitFace(ctx: AppContext, user: UserRow, key: FaceMethodKey, challengeId: string): Promise<MethodResult> {
  const v = await requireOpen(ctx, user, key);
  const challenge = await liveChallenge(ctx, user, key, challengeId);
  const frames = await sdb(ctx.db)
    .selectFrom('session_uploads')
    .selectAll()
    .where('user_id', '=', user.id)
    .where('method_key', '=', key)
    .where('challenge_id', '=', challenge.id)
    .execute();
  const ordered = challenge.steps.map((step, i) => frames.find((f) => f.step_index === i && f.step === step));
  if (ordered.some((f) => f === undefined)) throw sessionErrors.uploadInvalid('A frame is missing for some challenge step.');
  const now = ctx.clock.now();
  const job: FaceAnalysisJob = {
    kind: 'face',
    userId: user.id,
    methodId: v.method_id,
    methodKey: key,
    challengeId: challenge.id,
    steps: challenge.steps as ChallengeStep[],
    frames: ordered.map((f, i) => {
      const row = f!;
      const image: AnalysisImage = { uploadId: row.id, blobKey: row.blob_key, mediaType: row.media_type, size: row.size };
      return { ...image, stepIndex: i, step: row.step as ChallengeStep, evidence: JSON.parse(row.meta) as FaceAnalysisJob['frames'][number]['evidence'] };
    }),
    submittedAt: now.toISOString(),
  };
  await ctx.db.transaction().execute(async (trx) => {
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing, { attributes: { challenge_steps: challenge.steps.length } });
    await ctx.queue.enqueue(ANALYSIS_QUEUE, job, { maxAttempts: 5 }, trx);
  });
  done(ctx, user.id);
  return methodResult(ctx, user, key);
}
