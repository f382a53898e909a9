/** The selfie and liveness methods' session contract (`selfie`, `liveness`). */
import * as z from 'zod/mini';
import { isoDateTime, methodBase } from './base.js';

/** A liveness challenge step, judged on the device from the face box and keypoints. */
export const ChallengeStep = z.enum(['look_straight', 'turn_left', 'turn_right', 'come_closer']);
export type ChallengeStep = z.infer<typeof ChallengeStep>;
export const FaceNeeds = z.object({
  /** True for `liveness` (several randomised challenge steps), false for a plain `selfie`. */
  active_liveness: z.boolean(),
});
export const SelfieMethodView = z.object({ ...methodBase, key: z.literal('selfie'), needs: FaceNeeds });
export const LivenessMethodView = z.object({
  ...methodBase,
  key: z.literal('liveness'),
  needs: FaceNeeds,
});

/**
 * `POST /session/methods/{selfie|liveness}/challenge` (no body) → 201 {@link FaceChallenge}:
 * the server picks a randomised sequence (for `selfie` just `['look_straight']`; for `liveness`
 * `look_straight` then 2-3 of `turn_left`, `turn_right`, `come_closer` in random order) and
 * remembers it; a new call replaces the previous challenge.
 */
export const FaceChallenge = z.object({
  challenge_id: z.string(),
  steps: z.array(ChallengeStep),
  expires_at: isoDateTime,
});
export type FaceChallenge = z.infer<typeof FaceChallenge>;

/** Face geometry measured on the device for one frame (normalised 0..1 to the frame size). */
export const FaceEvidence = z.object({
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  /** BlazeFace's 6 keypoints: right eye, left eye, nose tip, mouth, right ear, left ear. */
  keypoints: z.array(z.object({ x: z.number(), y: z.number() })),
  score: z.number(),
  /** Estimated head yaw from keypoints, -1 (turned to the user's right) .. 1 (left). */
  yaw: z.number(),
  /** ms since the challenge was shown. */
  t: z.number(),
});
export type FaceEvidence = z.infer<typeof FaceEvidence>;

/**
 * `POST /session/methods/{selfie|liveness}/frames` — `multipart/form-data`, one frame per
 * challenge step, in order:
 * - `challenge_id` (text), `step_index` (text, integer), `step` (text: a {@link ChallengeStep})
 * - `evidence` (text): JSON of {@link FaceEvidence}
 * - `frame` (file): JPEG or PNG, < 10 MB, its header within 50 MP (checked as document uploads are)
 * → 201 `{ frame_id }`; 410 `session_challenge_expired`; 422 `session_upload_invalid` (wrong
 * step order or type).
 */
export const FaceFrameFields = z.object({
  challenge_id: z.string(),
  step_index: z.string().check(z.regex(/^\d+$/)),
  step: ChallengeStep,
  evidence: z.string(),
});
export type FaceFrameFields = z.infer<typeof FaceFrameFields>;
export const FaceFrameResponse = z.object({ frame_id: z.string() });
export type FaceFrameResponse = z.infer<typeof FaceFrameResponse>;

/**
 * `POST /session/methods/{selfie|liveness}/submit` once every step has its frame → 200
 * {@link MethodResult} (method `processing`; the server's analysis checks the frames).
 * 422 `session_upload_invalid` when frames are missing; 410 `session_challenge_expired`.
 */
export const FaceSubmitRequest = z.object({ challenge_id: z.string() });
export type FaceSubmitRequest = z.infer<typeof FaceSubmitRequest>;
