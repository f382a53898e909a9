/** The selfie and liveness methods' session contract (`selfie`, `liveness`). */
import * as z from 'zod/mini';
import { isoDateTime, methodBase } from './base.js';
import { FACE_REFUSALS } from './face-refusal.js';

/**
 * A liveness challenge step. The moves are judged on the device from the face box and keypoints;
 * `flash` (the screen shows {@link FaceChallenge}'s `flash.colours`, one frame per colour) and
 * `blink` (frames through `blink.window_ms`) are judged on the server only.
 */
export const ChallengeStep = z.enum(['look_straight', 'turn_left', 'turn_right', 'come_closer', 'flash', 'blink']);
export type ChallengeStep = z.infer<typeof ChallengeStep>;
/** What went wrong with a refused capture, as the user can act on it (see face-refusal.ts). */
export const FaceRefusal = z.enum(FACE_REFUSALS);
export type FaceRefusal = z.infer<typeof FaceRefusal>;

export const FaceNeeds = z.object({
  /** True for `liveness` (several randomised challenge steps), false for a plain `selfie`. */
  active_liveness: z.boolean(),
  /**
   * Attempts left before the last try, which goes to a reviewer on failure: 0 once three were used,
   * refused by the server or timed out on the device (the widget then shows help and the other ways
   * forward before that try). Absent from older servers.
   */
  attempts_left: z.optional(z.int()),
  /**
   * Why the server refused the capture before this retry, in the terms the widget words its help
   * in (face-refusal.ts `faceRefusalOf`); absent when the last attempt was not a refused capture (or the
   * reason names none of these).
   */
  last_refusal: z.optional(FaceRefusal),
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
 * `look_straight` then 2-3 of `turn_left`, `turn_right`, `come_closer` in random order, so always
 * with a turn), its timing, and remembers it; a new call replaces the previous challenge.
 *
 * The capture is bound to the challenge on the server (issue 20): every frame must carry its
 * `challenge_id` (a random nonce) and reach the server before `expires_at`; the frames of one
 * step must all arrive within `step_window_ms` of its first; a frame's `evidence.t` must grow
 * from frame to frame and may not claim more time than has passed on the server since the
 * challenge was issued. Frames outside these rules → 410 `session_challenge_expired` (nonce,
 * expiry, step window) or 422 `session_upload_invalid` (order, timing).
 *
 * Attempts: each challenge is one attempt. After `attempts_left` reaches 0 one more challenge is
 * handed out with `review_on_failure: true` (the widget shows help and the hand-off first): a
 * capture of it that fails the checks goes to a reviewer instead of being rejected. After that,
 * 429 `session_attempts_exceeded`. A retry after a rejection keeps the count.
 */
export const FaceChallenge = z.object({
  challenge_id: z.string(),
  steps: z.array(ChallengeStep),
  expires_at: isoDateTime,
  /** Most frames the server takes per step (`frame_index` 0 … this − 1): the dense frames of a move. */
  frames_per_step: z.int(),
  /** Fewest frames each move (every step but `look_straight`) must have at submit. */
  min_frames_per_move: z.int(),
  /** The frames of one step must all reach the server within this many ms of its first. */
  step_window_ms: z.int(),
  /** This attempt's number, from 1. */
  attempt: z.int(),
  /** Normal attempts left after this one. */
  attempts_left: z.int(),
  /** True for the last attempt: a capture that fails the checks goes to a reviewer. */
  review_on_failure: z.boolean(),
  /**
   * `liveness` only (its `flash` step): the screen shows each colour (`#rrggbb`) for `colour_ms`,
   * in order, and the step sends one frame per colour, `frame_index` i taken while colour i was
   * on the screen. The face's colour must follow them (issue 20). Never more than 3 changes a second.
   */
  flash: z.optional(z.object({ colours: z.array(z.string()), colour_ms: z.int() })),
  /** `liveness` only (its `blink` step): frames spread over `window_ms` (at most `frames`, at least `min_frames`) in which the eyes close and open. */
  blink: z.optional(z.object({ window_ms: z.int(), frames: z.int(), min_frames: z.int() })),
  /**
   * `liveness` only: how long the widget waits for each move (and the straight look) before the
   * attempt ends, from the account's `liveness_move_seconds` (30 s by default).
   */
  move_ms: z.optional(z.int()),
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
 * `POST /session/methods/{selfie|liveness}/frames` — `multipart/form-data`, one frame per call,
 * steps in order and within a step `frame_index` 0, 1, … (a move's frames in capture order, the
 * held pose last; re-sending the same step and index replaces that frame; once a later step has
 * begun an earlier one takes no more):
 * - `challenge_id` (text), `step_index` (text, integer), `step` (text: a {@link ChallengeStep}),
 *   `frame_index` (text, integer, optional, default 0; below `frames_per_step`)
 * - `evidence` (text): JSON of {@link FaceEvidence}
 * - `frame` (file): JPEG or PNG, < 10 MB, its header within 50 MP (checked as document uploads are)
 * → 201 `{ frame_id }`; 410 `session_challenge_expired`; 422 `session_upload_invalid` (wrong
 * step order or type).
 */
export const FaceFrameFields = z.object({
  challenge_id: z.string(),
  step_index: z.string().check(z.regex(/^\d+$/)),
  step: ChallengeStep,
  frame_index: z.optional(z.string().check(z.regex(/^\d+$/))),
  evidence: z.string(),
});
export type FaceFrameFields = z.infer<typeof FaceFrameFields>;
export const FaceFrameResponse = z.object({ frame_id: z.string() });
export type FaceFrameResponse = z.infer<typeof FaceFrameResponse>;

/**
 * `POST /session/methods/{selfie|liveness}/submit` once every step has its frames (moves at least
 * `min_frames_per_move`; on a `review_on_failure` attempt, at least the straight look) → 200
 * {@link MethodResult} (method `processing`; the server's analysis checks the frames). 422
 * `session_upload_invalid` when frames are missing; 410 `session_challenge_expired`.
 */
export const FaceSubmitRequest = z.object({ challenge_id: z.string() });
export type FaceSubmitRequest = z.infer<typeof FaceSubmitRequest>;
