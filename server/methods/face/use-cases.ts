import { randomBytes } from 'node:crypto';
import {
  FaceEvidence,
  FRAME_MEDIA_TYPES,
  type ChallengeStep,
  type FaceChallenge,
  type FaceFrameFields,
  type FaceMethodKey,
  type FaceRefusal,
} from '../../../src/api/contract.js';
import { faceRefusalOfRemarks } from '../../../src/api/methods/face-refusal.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { ANALYSIS_QUEUE, type AnalysisImage, type FaceAnalysisJob } from '../../domain/analysis-jobs.js';
import { sessionErrors } from '../../errors.js';
import { methodState, type MethodState } from '../../session/state-repo.js';
import { safeEqual } from '../../session/tokens.js';
import { replaceUploads, uploadsOf, uploadsOfChallenge, type SessionUpload } from '../../session/uploads-repo.js';
import type { Executor } from '../../store/database.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import type { UserRow, UserVerificationRow } from '../../store/schema.js';
import { challengeAttempts, type ChallengeAttempts } from '../challenge-attempts.js';
import type { MethodResult, SessionKit } from '../method.js';
import { acceptSessionUpload, parseJsonField } from '../uploads.js';
import { deleteFrames } from './repo.js';
import {
  BLINK_FRAMES,
  BLINK_MIN_FRAMES,
  BLINK_WINDOW_MS,
  CLOCK_SLACK_MS,
  FACE_ATTEMPTS,
  FLASH_COLOUR_MS,
  STEP_WINDOW_MS,
  challengeSteps,
  flashColours,
  framesRule,
  stepFrames,
} from './rules.js';

/** The live challenge of a face method (`method_state` under its key). */
export interface FaceChallengeState {
  challenge: {
    id: string;
    steps: string[];
    expires_at: string;
    /** When the server handed it out (frame timing is checked against it). */
    issued_at?: string;
    frames_per_step?: number;
    min_frames_per_move?: number;
    review_on_failure?: boolean;
    /** The colours the `flash` step shows, in order (liveness). */
    flash_colours?: string[];
  } | null;
  /** Challenges handed out while the method was open; kept across retries after a rejection. */
  attempts_used?: number;
  /** Why the capture before a retry was refused (until the next challenge): the widget words its help by it. */
  last_refusal?: FaceRefusal;
}

/** The state kept over a retry after a refused capture: the count, and why it was refused. */
function retryState(attemptsUsed: number, rejected: UserVerificationRow): FaceChallengeState {
  // The remarks are the analysis's reasons (analysis-runner.ts `runFace`).
  const refusal = faceRefusalOfRemarks(rejected.remarks);
  return { challenge: null, attempts_used: attemptsUsed, ...(refusal ? { last_refusal: refusal } : {}) };
}

/** What a stored frame's `meta` holds: the device's evidence and the frame's place in its step. */
type FrameMeta = FaceAnalysisJob['frames'][number]['evidence'] & { frame_index?: number };

const states: Record<FaceMethodKey, MethodState<FaceChallengeState>> = {
  selfie: methodState<FaceChallengeState>('selfie'),
  liveness: methodState<FaceChallengeState>('liveness'),
};

/** The challenge state of `key`. */
export function faceState(key: FaceMethodKey): MethodState<FaceChallengeState> {
  return states[key];
}

/** After {@link FACE_ATTEMPTS} challenges one more is handed out, which goes to review on failure. */
const attempts: Record<FaceMethodKey, ChallengeAttempts<FaceChallengeState>> = {
  selfie: challengeAttempts(states.selfie, FACE_ATTEMPTS + 1, retryState),
  liveness: challengeAttempts(states.liveness, FACE_ATTEMPTS + 1, retryState),
};

/** The attempts of `key`'s challenges. */
export function faceAttempts(key: FaceMethodKey): ChallengeAttempts<FaceChallengeState> {
  return attempts[key];
}

/**
 * A new randomised challenge (replacing any previous one and its frames), counted as an attempt:
 * after {@link FACE_ATTEMPTS} one more is handed out that goes to review on failure, then none.
 */
export async function newFaceChallenge(kit: SessionKit, user: UserRow, key: FaceMethodKey): Promise<FaceChallenge> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, key);
  // A reset by the customer or an operator gives the attempts back.
  const reset = v.status === VerificationStatus.reset;
  const steps = challengeSteps(key);
  const rule = framesRule(key);
  // The account's time for each move (10–30 s: every step still fits in the challenge's life).
  const moveMs = key === 'liveness' ? (await readSettings(ctx.db)).liveness_move_seconds * 1000 : null;
  const now = ctx.clock.now();
  // The attempt is counted in one step with its check: challenges asked for at once share the limit.
  const { challenge, attempt, old } = await ctx.db.transaction().execute(async (trx) => {
    const made = await faceState(key).update(trx, user.id, now, (previous) => {
      const attempt = attempts[key].next(previous, reset);
      const challenge = {
        id: `chl_${randomBytes(12).toString('base64url')}`,
        steps,
        expires_at: new Date(now.getTime() + rule.ttlMs).toISOString(),
        issued_at: now.toISOString(),
        frames_per_step: rule.framesPerStep,
        min_frames_per_move: rule.minFramesPerMove,
        review_on_failure: attempt > FACE_ATTEMPTS,
        ...(steps.includes('flash') ? { flash_colours: flashColours() } : {}),
      };
      return { next: { challenge, attempts_used: attempt }, result: { challenge, attempt } };
    });
    // Read after the update, which holds the state (on PostgreSQL, its row lock), as a frame's
    // upload does: a frame stored just before is deleted with its file, none after.
    const old = await uploadsOf(trx, user.id, key);
    await deleteFrames(trx, user.id, key);
    return { ...made, old };
  });
  for (const o of old) await ctx.blobs.delete(o.blob_key);
  return {
    challenge_id: challenge.id,
    steps,
    expires_at: challenge.expires_at,
    frames_per_step: rule.framesPerStep,
    min_frames_per_move: rule.minFramesPerMove,
    step_window_ms: STEP_WINDOW_MS,
    attempt,
    attempts_left: Math.max(0, FACE_ATTEMPTS - attempt),
    review_on_failure: challenge.review_on_failure,
    ...(challenge.flash_colours ? { flash: { colours: challenge.flash_colours, colour_ms: FLASH_COLOUR_MS } } : {}),
    ...(steps.includes('blink') ? { blink: { window_ms: BLINK_WINDOW_MS, frames: BLINK_FRAMES, min_frames: BLINK_MIN_FRAMES } } : {}),
    ...(moveMs !== null ? { move_ms: moveMs } : {}),
  };
}

/** The live challenge `challengeId` names (410 otherwise); `locked`: held until `ex`'s transaction ends. */
async function liveChallenge(kit: SessionKit, ex: Executor, user: UserRow, key: FaceMethodKey, challengeId: string, locked = false) {
  const state = locked ? await faceState(key).readLocked(ex, user.id) : await faceState(key).read(ex, user.id);
  const challenge = state?.challenge;
  if (!challenge || !safeEqual(challenge.id, challengeId) || challenge.expires_at <= kit.ctx.clock.now().toISOString()) throw sessionErrors.challengeExpired();
  return challenge;
}

/**
 * Where a frame goes in its challenge, checked against the frames stored so far (order, timing on
 * the server's clock): the live challenge and the frames the new one replaces (a retake of the
 * same step and frame index). With `locked`, inside the transaction that stores the frame.
 */
async function placeFrame(kit: SessionKit, ex: Executor, user: UserRow, key: FaceMethodKey, fields: FaceFrameFields, locked: boolean) {
  const challenge = await liveChallenge(kit, ex, user, key, fields.challenge_id, locked);
  const index = Number(fields.step_index);
  if (!Number.isSafeInteger(index) || index >= challenge.steps.length || challenge.steps[index] !== fields.step) {
    throw sessionErrors.uploadInvalid('This frame does not answer the expected challenge step.');
  }
  const frameIndex = Number(fields.frame_index ?? '0');
  if (!Number.isSafeInteger(frameIndex) || frameIndex >= stepFrames(fields.step, challenge.frames_per_step ?? 1, 1).max) {
    throw sessionErrors.uploadInvalid('This step takes no more frames.');
  }
  const evidence = parseJsonField(FaceEvidence, fields.evidence, 'evidence');
  if (!evidence) throw sessionErrors.validation({ evidence: ['Required.'] });
  const frames = await uploadsOfChallenge(ex, user.id, key, challenge.id);
  const placed = frames.map((f) => ({ row: f, meta: JSON.parse(f.meta) as FrameMeta })).map((f) => ({ ...f, frameIndex: f.meta.frame_index ?? 0 }));
  for (let i = 0; i < index; i++) {
    if (!placed.some((f) => f.row.step_index === i)) throw sessionErrors.uploadInvalid('Frames must be sent in step order.');
  }
  if (placed.some((f) => (f.row.step_index ?? 0) > index)) throw sessionErrors.uploadInvalid('This step is over: a later step has begun.');
  const sameStep = placed.filter((f) => f.row.step_index === index);
  for (let i = 0; i < frameIndex; i++) {
    if (!sameStep.some((f) => f.frameIndex === i)) throw sessionErrors.uploadInvalid('The frames of a step must be sent in order.');
  }
  // Timing on the server's clock (issue 20): a step's frames come together, and no frame may
  // claim more time since the challenge was shown than has passed since the server issued it.
  const now = kit.ctx.clock.now();
  const first = sameStep.find((f) => f.frameIndex === 0 && frameIndex > 0);
  if (first && now.getTime() - Date.parse(first.row.created_at) > STEP_WINDOW_MS) throw sessionErrors.challengeExpired();
  if (challenge.issued_at && evidence.t > now.getTime() - Date.parse(challenge.issued_at) + CLOCK_SLACK_MS) {
    throw sessionErrors.uploadInvalid('This frame claims a time after it reached the server.');
  }
  const before = placed
    .filter((f) => (f.row.step_index ?? 0) < index || (f.row.step_index === index && f.frameIndex < frameIndex))
    .reduce((t, f) => Math.max(t, f.meta.t), Number.NEGATIVE_INFINITY);
  if (evidence.t <= before) throw sessionErrors.uploadInvalid('Frames must be captured one after another.');
  return { challenge, index, frameIndex, evidence, replaced: sameStep.filter((f) => f.frameIndex === frameIndex).map((f) => f.row) };
}

/**
 * One frame of the live challenge. Checked before its file is stored (a refused frame writes
 * nothing), then checked again and stored in one transaction holding the challenge: of two frames
 * sent at once for the same step and frame index, one replaces the other (as a retake would), and
 * a frame racing a new challenge finds its challenge gone.
 */
export async function uploadFaceFrame(
  kit: SessionKit,
  user: UserRow,
  key: FaceMethodKey,
  fields: FaceFrameFields,
  bytes: Buffer,
): Promise<{ frame_id: string }> {
  const { ctx } = kit;
  await kit.requireOpen(user, key);
  await placeFrame(kit, ctx.db, user, key, fields, false);
  const mediaType = await acceptSessionUpload(bytes, FRAME_MEDIA_TYPES);
  const id = `frm_${randomBytes(12).toString('base64url')}`;
  const blobKey = `users/${user.id}/session/${id}`;
  await ctx.blobs.put(blobKey, bytes, mediaType);
  let replaced: SessionUpload[];
  try {
    replaced = await ctx.db.transaction().execute(async (trx) => {
      const place = await placeFrame(kit, trx, user, key, fields, true);
      await replaceUploads(trx, place.replaced, {
        id,
        user_id: user.id,
        method_key: key,
        challenge_id: place.challenge.id,
        step_index: place.index,
        step: fields.step,
        blob_key: blobKey,
        media_type: mediaType,
        size: bytes.length,
        meta: JSON.stringify({ ...place.evidence, frame_index: place.frameIndex } satisfies FrameMeta),
        created_at: ctx.clock.now().toISOString(),
      });
      return place.replaced;
    });
  } catch (error: unknown) {
    await ctx.blobs.delete(blobKey);
    throw error;
  }
  for (const r of replaced) await ctx.blobs.delete(r.blob_key);
  return { frame_id: id };
}

/**
 * Submits the challenge's frames. The frames are read and the challenge used up (single use) in
 * the transaction that queues the job, holding the challenge: a frame sent at the same moment is
 * either in the job or refused, never swapped for another under it.
 */
export async function submitFace(kit: SessionKit, user: UserRow, key: FaceMethodKey, challengeId: string): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, key);
  await ctx.db.transaction().execute(async (trx) => {
    const challenge = await liveChallenge(kit, trx, user, key, challengeId, true);
    const frames = await uploadsOfChallenge(trx, user.id, key, challenge.id);
    const byStep = challenge.steps.map((step, i) =>
      frames
        .filter((f) => f.step_index === i && f.step === step)
        .map((row) => ({ row, meta: JSON.parse(row.meta) as FrameMeta }))
        .sort((a, b) => (a.meta.frame_index ?? 0) - (b.meta.frame_index ?? 0)),
    );
    const minMove = challenge.min_frames_per_move ?? 1;
    // The last attempt goes to a reviewer whatever was captured, as long as the face was (issue 20).
    const missing = challenge.review_on_failure
      ? (byStep[0]?.length ?? 0) === 0
      : byStep.some((f, i) => f.length < stepFrames(challenge.steps[i] as ChallengeStep, challenge.frames_per_step ?? 1, minMove).min);
    if (missing) throw sessionErrors.uploadInvalid('Frames are missing for some challenge step.');
    const now = ctx.clock.now();
    const job: FaceAnalysisJob = {
      kind: 'face',
      userId: user.id,
      methodId: v.method_id,
      methodKey: key,
      challengeId: challenge.id,
      steps: challenge.steps as ChallengeStep[],
      frames: byStep.flatMap((step, i) =>
        step.map(({ row, meta }) => {
          const image: AnalysisImage = { uploadId: row.id, blobKey: row.blob_key, mediaType: row.media_type, size: row.size };
          const { frame_index: _frameIndex, ...evidence } = meta;
          return { ...image, stepIndex: i, step: row.step as ChallengeStep, evidence };
        }),
      ),
      ...(challenge.review_on_failure ? { reviewOnFailure: true } : {}),
      ...(challenge.flash_colours ? { flashColours: challenge.flash_colours } : {}),
      submittedAt: now.toISOString(),
    };
    const state = await faceState(key).read(trx, user.id);
    await faceState(key).write(trx, user.id, { ...state, challenge: null }, now);
    await moveVerification(trx, ctx.clock, user.id, v.method_id, VerificationStatus.processing, { attributes: { challenge_steps: challenge.steps.length } });
    await ctx.queue.enqueue(ANALYSIS_QUEUE, job, { maxAttempts: 5 }, trx);
  });
  kit.changed(user.id);
  return kit.result(user, key);
}
