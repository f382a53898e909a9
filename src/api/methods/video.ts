/** The Video method's session contract (`video`, spec method 5). */
import * as z from 'zod/mini';
import { isoDateTime, methodBase } from './base.js';

/**
 * A head move the video challenge can ask for, in the user's own directions (the raw,
 * unmirrored camera frame: turning to one's left moves the nose towards the image's right).
 */
export const VideoMove = z.enum(['turn_left', 'turn_right']);
export type VideoMove = z.infer<typeof VideoMove>;

/** Needs of the video step. */
export const VideoNeeds = z.object({
  /** Shortest and longest recording the server takes, in ms (3-6 s). */
  min_duration_ms: z.int(),
  max_duration_ms: z.int(),
  /** Fewest and most frames sampled from the recording that the server takes (8-12). */
  min_frames: z.int(),
  max_frames: z.int(),
  /** Normal attempts (challenges) left; after a rejection the count goes on. */
  attempts_left: z.int(),
});
export type VideoNeeds = z.infer<typeof VideoNeeds>;

export const VideoMethodView = z.object({ ...methodBase, key: z.literal('video'), needs: VideoNeeds });

/**
 * `POST /session/methods/video/challenge` (no body) → 201 {@link VideoChallenge}: a random
 * sequence of head moves and a single-use nonce (`challenge_id`), valid until `expires_at`. A new
 * call replaces the previous challenge and its uploads; each call is one attempt: after the
 * last, 429 `session_attempts_exceeded`.
 */
export const VideoChallenge = z.object({
  challenge_id: z.string(),
  /** The moves to make, in this order, starting and ending looking straight at the camera. */
  moves: z.array(VideoMove),
  expires_at: isoDateTime,
  min_duration_ms: z.int(),
  max_duration_ms: z.int(),
  min_frames: z.int(),
  max_frames: z.int(),
  /** This attempt's number, from 1. */
  attempt: z.int(),
  /** Normal attempts left after this one. */
  attempts_left: z.int(),
});
export type VideoChallenge = z.infer<typeof VideoChallenge>;

/**
 * `POST /session/methods/video/frames` — `multipart/form-data`, one frame sampled from the
 * recording per call, in order (`index` 0, 1, …, below `max_frames`):
 * - `challenge_id` (text), `index` (text, integer)
 * - `t` (text, integer): ms since the challenge was shown; grows from frame to frame and may not
 *   claim more time than has passed on the server since the challenge was issued
 * - `frame` (file): JPEG or PNG, < 10 MB, checked by content
 * → 201 `{ frame_id }`; 410 `session_challenge_expired` (unknown, used or expired nonce);
 * 422 `session_upload_invalid` (order, timing, type, or a frame already sent for another
 * challenge).
 */
export const VideoFrameFields = z.object({
  challenge_id: z.string(),
  index: z.string().check(z.regex(/^\d{1,3}$/)),
  t: z.string().check(z.regex(/^\d{1,7}$/)),
});
export type VideoFrameFields = z.infer<typeof VideoFrameFields>;
export const VideoUploadResponse = z.object({ upload_id: z.string() });
export type VideoUploadResponse = z.infer<typeof VideoUploadResponse>;

/**
 * `POST /session/methods/video/recording` — `multipart/form-data`: `challenge_id` (text),
 * `duration_ms` (text, integer, within the challenge's bounds) and `video` (file: WebM or MP4 by
 * content, < 10 MB), kept for the record (a reviewer can watch it) under the retention rules.
 * Sending it again replaces it. → 201 `{ upload_id }`; 410 / 422 as for frames.
 */
export const VideoRecordingFields = z.object({
  challenge_id: z.string(),
  duration_ms: z.string().check(z.regex(/^\d{1,6}$/)),
});
export type VideoRecordingFields = z.infer<typeof VideoRecordingFields>;

/**
 * `POST /session/methods/video/submit` `{ challenge_id }` once the recording and at least
 * `min_frames` frames are in → 200 {@link MethodResult} (method `processing`; the server's
 * analysis decides). Uses the nonce up: a second submit answers 410. 422
 * `session_upload_invalid` when the recording or frames are missing or span too short a time.
 */
export const VideoSubmitRequest = z.object({ challenge_id: z.string() });
export type VideoSubmitRequest = z.infer<typeof VideoSubmitRequest>;
