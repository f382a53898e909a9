import { randomBytes } from 'node:crypto';
import {
  FaceEvidence,
  FRAME_MEDIA_TYPES,
  type ChallengeStep,
  type FaceChallenge,
  type FaceFrameFields,
  type FaceMethodKey,
} from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { ANALYSIS_QUEUE, type AnalysisImage, type FaceAnalysisJob } from '../../domain/analysis-jobs.js';
import { sessionErrors } from '../../session/errors.js';
import { methodState, type MethodState } from '../../session/state.js';
import { safeEqual } from '../../session/tokens.js';
import { deleteUploads, insertUpload, uploadsOf } from '../../session/uploads-repo.js';
import type { UserRow } from '../../store/schema.js';
import type { MethodResult, SessionKit } from '../method.js';
import { acceptSessionUpload, parseJsonField } from '../uploads.js';
import { deleteFrames, framesOf } from './repo.js';
import { CHALLENGE_TTL_MS, challengeSteps } from './rules.js';

/** The live challenge of a face method (`method_state` under its key). */
export interface FaceChallengeState {
  challenge: { id: string; steps: string[]; expires_at: string } | null;
}

const states: Record<FaceMethodKey, MethodState<FaceChallengeState>> = {
  selfie: methodState<FaceChallengeState>('selfie'),
  liveness: methodState<FaceChallengeState>('liveness'),
};

/** The challenge state of `key`. */
export function faceState(key: FaceMethodKey): MethodState<FaceChallengeState> {
  return states[key];
}

/** A new randomised challenge (replacing any previous one and its frames). */
export async function newFaceChallenge(kit: SessionKit, user: UserRow, key: FaceMethodKey): Promise<FaceChallenge> {
  const { ctx } = kit;
  await kit.requireOpen(user, key);
  const steps = challengeSteps(key);
  const now = ctx.clock.now();
  const challenge = { id: `chl_${randomBytes(12).toString('base64url')}`, steps, expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString() };
  const old = await uploadsOf(ctx.db, user.id, key);
  await ctx.db.transaction().execute(async (trx) => {
    await faceState(key).write(trx, user.id, { challenge }, now);
    await deleteFrames(trx, user.id, key);
  });
  for (const o of old) await ctx.blobs.delete(o.blob_key);
  return { challenge_id: challenge.id, steps, expires_at: challenge.expires_at };
}

async function liveChallenge(kit: SessionKit, user: UserRow, key: FaceMethodKey, challengeId: string) {
  const state = await faceState(key).read(kit.ctx.db, user.id);
  const challenge = state?.challenge;
  if (!challenge || !safeEqual(challenge.id, challengeId) || challenge.expires_at <= kit.ctx.clock.now().toISOString()) throw sessionErrors.challengeExpired();
  return challenge;
}

export async function uploadFaceFrame(
  kit: SessionKit,
  user: UserRow,
  key: FaceMethodKey,
  fields: FaceFrameFields,
  bytes: Buffer,
): Promise<{ frame_id: string }> {
  const { ctx } = kit;
  await kit.requireOpen(user, key);
  const challenge = await liveChallenge(kit, user, key, fields.challenge_id);
  const index = Number(fields.step_index);
  if (!Number.isSafeInteger(index) || index >= challenge.steps.length || challenge.steps[index] !== fields.step) {
    throw sessionErrors.uploadInvalid('This frame does not answer the expected challenge step.');
  }
  const evidence = parseJsonField(FaceEvidence, fields.evidence, 'evidence');
  if (!evidence) throw sessionErrors.validation({ evidence: ['Required.'] });
  const frames = await framesOf(ctx.db, user.id, key, challenge.id);
  for (let i = 0; i < index; i++) {
    if (!frames.some((f) => f.step_index === i)) throw sessionErrors.uploadInvalid('Frames must be sent in step order.');
  }
  const mediaType = await acceptSessionUpload(bytes, FRAME_MEDIA_TYPES);
  const id = `frm_${randomBytes(12).toString('base64url')}`;
  const blobKey = `users/${user.id}/session/${id}`;
  await ctx.blobs.put(blobKey, bytes, mediaType);
  const replaced = frames.filter((f) => f.step_index === index);
  await ctx.db.transaction().execute(async (trx) => {
    await deleteUploads(
      trx,
      replaced.map((f) => f.id),
    );
    await insertUpload(trx, {
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
    });
  });
  for (const r of replaced) await ctx.blobs.delete(r.blob_key);
  return { frame_id: id };
}

export async function submitFace(kit: SessionKit, user: UserRow, key: FaceMethodKey, challengeId: string): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, key);
  const challenge = await liveChallenge(kit, user, key, challengeId);
  const frames = await framesOf(ctx.db, user.id, key, challenge.id);
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
  kit.changed(user.id);
  return kit.result(user, key);
}
