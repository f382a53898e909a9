import { createHash, randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import {
  FRAME_MEDIA_TYPES,
  RECORDING_MEDIA_TYPES,
  type VideoChallenge,
  type VideoFrameFields,
  type VideoMove,
  type VideoRecordingFields,
} from '../../../src/api/contract.js';
import { ANALYSIS_QUEUE, type AnalysisImage, type VideoAnalysisJob } from '../../domain/analysis-jobs.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../errors.js';
import { methodState } from '../../session/state-repo.js';
import { safeEqual } from '../../session/tokens.js';
import { deleteUploads, replaceUploads, uploadsOfChallenge, type SessionUpload } from '../../session/uploads-repo.js';
import type { UserRow } from '../../store/schema.js';
import { checkSize } from '../../uploads/accept-upload.js';
import { isAnalysisInputError, InputErrorCode } from '../../analysis/errors.js';
import { CLOCK_SLACK_MS } from '../face/rules.js';
import { challengeAttempts } from '../challenge-attempts.js';
import type { MethodResult, SessionKit } from '../method.js';
import { acceptSessionUpload } from '../uploads.js';
import { challengeOfFrame, rememberFrame, UPLOAD_KIND, uploadsNotOf, VIDEO_KEY } from './repo.js';
import {
  MAX_DURATION_MS,
  MAX_FRAMES,
  MIN_DURATION_MS,
  MIN_FRAMES,
  VIDEO_CHALLENGES,
  captureProblem,
  drawMoves,
  durationAllowed,
  frameTimeProblem,
} from './rules.js';

/** The live challenge of the Video method (`method_state` under `video`). */
export interface VideoState {
  /** Null once used by a submit (single use) or before the first. */
  challenge: { id: string; moves: VideoMove[]; issued_at: string; expires_at: string } | null;
  /** Challenges handed out while the method was open; kept across retries after a rejection. */
  attempts_used: number;
}

export const videoState = methodState<VideoState>(VIDEO_KEY);
export const videoAttempts = challengeAttempts(videoState, VIDEO_CHALLENGES.attempts, (attempts_used) => ({ challenge: null, attempts_used }));

/** What a stored upload's `meta` holds. */
interface UploadMeta {
  t?: number;
  duration_ms?: number;
}

const metaOf = (row: SessionUpload): UploadMeta => JSON.parse(row.meta) as UploadMeta;

async function dropUploads(kit: SessionKit, rows: readonly SessionUpload[]): Promise<void> {
  await deleteUploads(
    kit.ctx.db,
    rows.map((r) => r.id),
  );
  for (const r of rows) await kit.ctx.blobs.delete(r.blob_key);
}

/**
 * A new random challenge (replacing any previous one and its uploads), counted as an attempt in
 * the same atomic update that checks the limit: challenges asked for at once share it.
 */
export async function newVideoChallenge(kit: SessionKit, user: UserRow): Promise<VideoChallenge> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, VIDEO_KEY);
  // A reset by the customer or an operator gives the attempts back.
  const reset = v.status === VerificationStatus.reset;
  const now = ctx.clock.now();
  const challenge = {
    id: `vch_${randomBytes(16).toString('base64url')}`,
    moves: drawMoves(),
    issued_at: now.toISOString(),
    expires_at: new Date(now.getTime() + VIDEO_CHALLENGES.ttlMs).toISOString(),
  };
  const attempt = await videoState.update(ctx.db, user.id, now, (previous) => {
    const attempt = videoAttempts.next(previous, reset);
    return { next: { challenge, attempts_used: attempt }, result: attempt };
  });
  await dropUploads(kit, await uploadsNotOf(ctx.db, user.id, challenge.id));
  return {
    challenge_id: challenge.id,
    moves: challenge.moves,
    expires_at: challenge.expires_at,
    min_duration_ms: MIN_DURATION_MS,
    max_duration_ms: MAX_DURATION_MS,
    min_frames: MIN_FRAMES,
    max_frames: MAX_FRAMES,
    attempt,
    attempts_left: Math.max(0, VIDEO_CHALLENGES.attempts - attempt),
  };
}

/** The challenge `challengeId` names, when it is the user's live one (410 otherwise). */
async function liveChallenge(kit: SessionKit, user: UserRow, challengeId: string): Promise<NonNullable<VideoState['challenge']>> {
  const challenge = (await videoState.read(kit.ctx.db, user.id))?.challenge;
  if (!challenge || !safeEqual(challenge.id, challengeId) || challenge.expires_at <= kit.ctx.clock.now().toISOString()) throw sessionErrors.challengeExpired();
  return challenge;
}

async function storeUpload(
  kit: SessionKit,
  user: UserRow,
  challengeId: string,
  upload: { kind: string; index: number; bytes: Buffer; mediaType: string; meta: UploadMeta; replaces: readonly SessionUpload[] },
): Promise<string> {
  const { ctx } = kit;
  const id = `vid_${randomBytes(12).toString('base64url')}`;
  const blobKey = `users/${user.id}/video/${id}`;
  await ctx.blobs.put(blobKey, upload.bytes, upload.mediaType);
  await ctx.db.transaction().execute(async (trx) => {
    await replaceUploads(trx, upload.replaces, {
      id,
      user_id: user.id,
      method_key: VIDEO_KEY,
      challenge_id: challengeId,
      step_index: upload.index,
      step: upload.kind,
      blob_key: blobKey,
      media_type: upload.mediaType,
      size: upload.bytes.length,
      meta: JSON.stringify(upload.meta),
      created_at: ctx.clock.now().toISOString(),
    });
  });
  for (const r of upload.replaces) await ctx.blobs.delete(r.blob_key);
  return id;
}

/** One frame sampled from the recording: in order, timed within the challenge, never one sent for another challenge. */
export async function uploadVideoFrame(kit: SessionKit, user: UserRow, fields: VideoFrameFields, bytes: Buffer): Promise<{ upload_id: string }> {
  const { ctx } = kit;
  await kit.requireOpen(user, VIDEO_KEY);
  const challenge = await liveChallenge(kit, user, fields.challenge_id);
  const index = Number(fields.index);
  const t = Number(fields.t);
  if (index >= MAX_FRAMES) throw sessionErrors.uploadInvalid(`A recording takes at most ${MAX_FRAMES} frames.`);
  const frames = (await uploadsOfChallenge(ctx.db, user.id, VIDEO_KEY, challenge.id)).filter((u) => u.step === UPLOAD_KIND.frame);
  for (let i = 0; i < index; i++) if (!frames.some((f) => f.step_index === i)) throw sessionErrors.uploadInvalid('Frames must be sent in order.');
  if (frames.some((f) => (f.step_index ?? 0) > index)) throw sessionErrors.uploadInvalid('A later frame has been sent already.');
  const previous = frames.find((f) => f.step_index === index - 1);
  const elapsed = ctx.clock.now().getTime() - Date.parse(challenge.issued_at);
  const problem = frameTimeProblem(t, previous ? (metaOf(previous).t ?? 0) : null, elapsed, CLOCK_SLACK_MS);
  if (problem) throw sessionErrors.uploadInvalid(problem);
  const mediaType = await acceptSessionUpload(bytes, FRAME_MEDIA_TYPES);
  const hash = createHash('sha256').update(bytes).digest('hex');
  const seenFor = await challengeOfFrame(ctx.db, hash);
  if (seenFor !== undefined && seenFor !== challenge.id) throw sessionErrors.uploadInvalid('This frame was already sent for another challenge.');
  const id = await storeUpload(kit, user, challenge.id, {
    kind: UPLOAD_KIND.frame,
    index,
    bytes,
    mediaType,
    meta: { t },
    replaces: frames.filter((f) => f.step_index === index),
  });
  if (seenFor === undefined) await rememberFrame(ctx.db, { hash, user_id: user.id, challenge_id: challenge.id, created_at: ctx.clock.now().toISOString() });
  return { upload_id: id };
}

/** The recording itself, kept for the record: WebM or MP4 by its content. */
export async function uploadVideoRecording(kit: SessionKit, user: UserRow, fields: VideoRecordingFields, bytes: Buffer): Promise<{ upload_id: string }> {
  const { ctx } = kit;
  await kit.requireOpen(user, VIDEO_KEY);
  const challenge = await liveChallenge(kit, user, fields.challenge_id);
  const durationMs = Number(fields.duration_ms);
  if (!durationAllowed(durationMs)) throw sessionErrors.uploadInvalid(`The recording must last ${MIN_DURATION_MS / 1000}-${MAX_DURATION_MS / 1000} seconds.`);
  const elapsed = ctx.clock.now().getTime() - Date.parse(challenge.issued_at);
  if (durationMs > elapsed + CLOCK_SLACK_MS) throw sessionErrors.uploadInvalid('The recording is longer than the time since the challenge was shown.');
  try {
    checkSize(bytes);
  } catch (err: unknown) {
    if (isAnalysisInputError(err) && err.code === InputErrorCode.TooLarge) throw sessionErrors.uploadTooLarge();
    throw sessionErrors.uploadInvalid('The recording is empty.');
  }
  const found = await fileTypeFromBuffer(bytes);
  const mediaType = RECORDING_MEDIA_TYPES.find((m) => m === found?.mime);
  if (!mediaType) throw sessionErrors.uploadInvalid('Only WebM and MP4 recordings are accepted.');
  const previous = (await uploadsOfChallenge(ctx.db, user.id, VIDEO_KEY, challenge.id)).filter((u) => u.step === UPLOAD_KIND.recording);
  const id = await storeUpload(kit, user, challenge.id, {
    kind: UPLOAD_KIND.recording,
    index: 0,
    bytes,
    mediaType,
    meta: { duration_ms: durationMs },
    replaces: previous,
  });
  return { upload_id: id };
}

const imageOf = (row: SessionUpload): AnalysisImage => ({ uploadId: row.id, blobKey: row.blob_key, mediaType: row.media_type, size: row.size });

/**
 * Uses the challenge up (one atomic update: two submits at once make one job) and queues the
 * analysis in the transaction that moves the method to `processing`.
 */
export async function submitVideo(kit: SessionKit, user: UserRow, challengeId: string): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, VIDEO_KEY);
  const challenge = await liveChallenge(kit, user, challengeId);
  const uploads = await uploadsOfChallenge(ctx.db, user.id, VIDEO_KEY, challenge.id);
  const frames = uploads.filter((u) => u.step === UPLOAD_KIND.frame).sort((a, b) => (a.step_index ?? 0) - (b.step_index ?? 0));
  const recording = uploads.find((u) => u.step === UPLOAD_KIND.recording);
  const durationMs = recording ? (metaOf(recording).duration_ms ?? null) : null;
  const problem = captureProblem(
    frames.map((f) => metaOf(f).t ?? 0),
    durationMs,
  );
  if (problem || !recording || durationMs === null) throw sessionErrors.uploadInvalid(problem ?? 'The recording is missing.');
  const now = ctx.clock.now();
  const job: VideoAnalysisJob = {
    kind: 'video',
    userId: user.id,
    methodId: v.method_id,
    challengeId: challenge.id,
    moves: challenge.moves,
    frames: frames.map((f) => ({ ...imageOf(f), t: metaOf(f).t ?? 0 })),
    recording: { ...imageOf(recording), durationMs },
    submittedAt: now.toISOString(),
  };
  await ctx.db.transaction().execute(async (trx) => {
    await videoState.update(trx, user.id, now, (state) => {
      if (!state?.challenge || state.challenge.id !== challenge.id) throw sessionErrors.challengeExpired();
      return { next: { ...state, challenge: null }, result: undefined };
    });
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing, { attributes: { challenge: challenge.moves } });
    await ctx.queue.enqueue(ANALYSIS_QUEUE, job, { maxAttempts: 5 }, trx);
  });
  kit.changed(user.id);
  return kit.result(user, VIDEO_KEY);
}
