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
import type { Executor } from '../../store/database.js';
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
  const { attempt, dropped } = await ctx.db.transaction().execute(async (trx) => {
    const attempt = await videoState.update(trx, user.id, now, (previous) => {
      const attempt = videoAttempts.next(previous, reset);
      return { next: { challenge, attempts_used: attempt }, result: attempt };
    });
    // Read after the update, which holds the state (on PostgreSQL, its row lock) as an upload
    // does: an upload stored just before goes with its file, one racing it finds its challenge gone.
    const dropped = await uploadsNotOf(trx, user.id, challenge.id);
    await deleteUploads(
      trx,
      dropped.map((r) => r.id),
    );
    return { attempt, dropped };
  });
  for (const r of dropped) await ctx.blobs.delete(r.blob_key);
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

/** The challenge `challengeId` names, when it is the user's live one (410 otherwise); `locked`: held until `ex`'s transaction ends. */
async function liveChallenge(
  kit: SessionKit,
  user: UserRow,
  challengeId: string,
  ex: Executor = kit.ctx.db,
  locked = false,
): Promise<NonNullable<VideoState['challenge']>> {
  const challenge = (locked ? await videoState.readLocked(ex, user.id) : await videoState.read(ex, user.id))?.challenge;
  if (!challenge || !safeEqual(challenge.id, challengeId) || challenge.expires_at <= kit.ctx.clock.now().toISOString()) throw sessionErrors.challengeExpired();
  return challenge;
}

/**
 * Where an upload goes, checked against the live challenge and the uploads stored so far: the
 * rows it replaces. Run once before the file is stored (a refused upload writes nothing) and
 * again, `locked`, in the transaction that stores it.
 */
type Placement = (ex: Executor, locked: boolean) => Promise<readonly SessionUpload[]>;

/**
 * Stores the file, then its row in place of the rows `place` finds under the held challenge: of
 * two uploads of the same slot at once, one replaces the other (as a resend would); an upload
 * racing a new challenge or the submit finds its challenge gone. `also` runs in the same transaction.
 */
async function storeUpload(
  kit: SessionKit,
  user: UserRow,
  challengeId: string,
  upload: { kind: string; index: number; bytes: Buffer; mediaType: string; meta: UploadMeta },
  place: Placement,
  also?: (trx: Executor) => Promise<void>,
): Promise<string> {
  const { ctx } = kit;
  const id = `vid_${randomBytes(12).toString('base64url')}`;
  const blobKey = `users/${user.id}/video/${id}`;
  await ctx.blobs.put(blobKey, upload.bytes, upload.mediaType);
  let replaced: readonly SessionUpload[];
  try {
    replaced = await ctx.db.transaction().execute(async (trx) => {
      const replaces = await place(trx, true);
      await also?.(trx);
      await replaceUploads(trx, replaces, {
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
      return replaces;
    });
  } catch (error: unknown) {
    await ctx.blobs.delete(blobKey);
    throw error;
  }
  for (const r of replaced) await ctx.blobs.delete(r.blob_key);
  return id;
}

/** One frame sampled from the recording: in order, timed within the challenge, never one sent for another challenge. */
export async function uploadVideoFrame(kit: SessionKit, user: UserRow, fields: VideoFrameFields, bytes: Buffer): Promise<{ upload_id: string }> {
  const { ctx } = kit;
  await kit.requireOpen(user, VIDEO_KEY);
  const index = Number(fields.index);
  const t = Number(fields.t);
  const place: Placement = async (ex, locked) => {
    const challenge = await liveChallenge(kit, user, fields.challenge_id, ex, locked);
    if (index >= MAX_FRAMES) throw sessionErrors.uploadInvalid(`A recording takes at most ${MAX_FRAMES} frames.`);
    const frames = (await uploadsOfChallenge(ex, user.id, VIDEO_KEY, challenge.id)).filter((u) => u.step === UPLOAD_KIND.frame);
    for (let i = 0; i < index; i++) if (!frames.some((f) => f.step_index === i)) throw sessionErrors.uploadInvalid('Frames must be sent in order.');
    if (frames.some((f) => (f.step_index ?? 0) > index)) throw sessionErrors.uploadInvalid('A later frame has been sent already.');
    const previous = frames.find((f) => f.step_index === index - 1);
    const elapsed = ctx.clock.now().getTime() - Date.parse(challenge.issued_at);
    const problem = frameTimeProblem(t, previous ? (metaOf(previous).t ?? 0) : null, elapsed, CLOCK_SLACK_MS);
    if (problem) throw sessionErrors.uploadInvalid(problem);
    return frames.filter((f) => f.step_index === index);
  };
  await place(ctx.db, false);
  const challengeId = fields.challenge_id;
  const mediaType = await acceptSessionUpload(bytes, FRAME_MEDIA_TYPES);
  const hash = createHash('sha256').update(bytes).digest('hex');
  // Checked first without storing anything, then where the frame is stored (with its hash).
  const replay = async (ex: Executor, locked = false): Promise<boolean> => {
    const seenFor = await challengeOfFrame(ex, hash, locked);
    if (seenFor !== undefined && seenFor !== challengeId) throw sessionErrors.uploadInvalid('This frame was already sent for another challenge.');
    return seenFor === undefined;
  };
  await replay(ctx.db);
  const id = await storeUpload(kit, user, challengeId, { kind: UPLOAD_KIND.frame, index, bytes, mediaType, meta: { t } }, place, async (trx) => {
    if (await replay(trx, true)) await rememberFrame(trx, { hash, user_id: user.id, challenge_id: challengeId, created_at: ctx.clock.now().toISOString() });
  });
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
  const place: Placement = async (ex, locked) => {
    const live = await liveChallenge(kit, user, fields.challenge_id, ex, locked);
    return (await uploadsOfChallenge(ex, user.id, VIDEO_KEY, live.id)).filter((u) => u.step === UPLOAD_KIND.recording);
  };
  const id = await storeUpload(kit, user, challenge.id, { kind: UPLOAD_KIND.recording, index: 0, bytes, mediaType, meta: { duration_ms: durationMs } }, place);
  return { upload_id: id };
}

const imageOf = (row: SessionUpload): AnalysisImage => ({ uploadId: row.id, blobKey: row.blob_key, mediaType: row.media_type, size: row.size });

/**
 * Uses the challenge up (one atomic update: two submits at once make one job) and queues the
 * analysis in the transaction that moves the method to `processing`. The uploads are read after
 * that update, which holds the challenge: an upload sent at the same moment is in the job or
 * refused, never swapped for another under it.
 */
export async function submitVideo(kit: SessionKit, user: UserRow, challengeId: string): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, VIDEO_KEY);
  const challenge = await liveChallenge(kit, user, challengeId);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await videoState.update(trx, user.id, now, (state) => {
      if (!state?.challenge || state.challenge.id !== challenge.id) throw sessionErrors.challengeExpired();
      return { next: { ...state, challenge: null }, result: undefined };
    });
    const uploads = await uploadsOfChallenge(trx, user.id, VIDEO_KEY, challenge.id);
    const frames = uploads.filter((u) => u.step === UPLOAD_KIND.frame).sort((a, b) => (a.step_index ?? 0) - (b.step_index ?? 0));
    const recording = uploads.find((u) => u.step === UPLOAD_KIND.recording);
    const durationMs = recording ? (metaOf(recording).duration_ms ?? null) : null;
    const problem = captureProblem(
      frames.map((f) => metaOf(f).t ?? 0),
      durationMs,
    );
    if (problem || !recording || durationMs === null) throw sessionErrors.uploadInvalid(problem ?? 'The recording is missing.');
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
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing, { attributes: { challenge: challenge.moves } });
    await ctx.queue.enqueue(ANALYSIS_QUEUE, job, { maxAttempts: 5 }, trx);
  });
  kit.changed(user.id);
  return kit.result(user, VIDEO_KEY);
}
