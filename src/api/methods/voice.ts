/** The Voice method's session contract (`voice`, spec method 6). */
import * as z from 'zod/mini';
import { isoDateTime, methodBase } from './base.js';

/** Audio the server takes: 16-bit PCM WAV, mono (the widget converts its MediaRecorder capture). */
export const VOICE_MEDIA_TYPE = 'audio/wav';
/** Largest recording accepted: 20 s of 16 kHz 16-bit mono is 640 kB; a longer file is refused unread. */
export const MAX_VOICE_BYTES = 1024 * 1024;
/** The sample rate the server takes (what the recogniser's model was trained on). */
export const VOICE_SAMPLE_RATE = 16_000;

/** Needs of the voice step. */
export const VoiceNeeds = z.object({
  /** Digits in a phrase (6). */
  phrase_length: z.int(),
  /** Longest recording the server takes, in seconds. */
  max_seconds: z.int(),
  /** Phrases (attempts) the user may still ask for. */
  attempts_left: z.int(),
});
export type VoiceNeeds = z.infer<typeof VoiceNeeds>;

export const VoiceMethodView = z.object({ ...methodBase, key: z.literal('voice'), needs: VoiceNeeds });

/**
 * `POST /session/methods/voice/phrase` (no body) → 201 {@link VoicePhrase}: a new random phrase
 * of digits to read aloud, replacing any earlier one. Each phrase is one attempt; after the last,
 * 429 `session_attempts_exceeded`. A phrase is answered once (one recording) before `expires_at`.
 */
export const VoicePhrase = z.object({
  phrase_id: z.string(),
  /** The digits to read, e.g. `"470193"` (the widget shows them spaced, read one by one). */
  digits: z.string(),
  expires_at: isoDateTime,
  /** Shortest and longest recording, in seconds. */
  min_seconds: z.number(),
  max_seconds: z.number(),
  /** This attempt's number, from 1, and the attempts left after it. */
  attempt: z.int(),
  attempts_left: z.int(),
});
export type VoicePhrase = z.infer<typeof VoicePhrase>;

/**
 * `POST /session/methods/voice/recording` — `multipart/form-data`:
 * - `phrase_id` (text): the phrase read;
 * - `audio` (file): RIFF/WAVE, 16-bit PCM, mono, 16 kHz, at most `max_seconds` long and
 *   {@link MAX_VOICE_BYTES}; checked by content, not by name or type.
 * → 200 {@link MethodResult} with the method `processing`: the server checks speech presence,
 * length, level and the spoken digits off the request, then moves it to `complete` or
 * `rejected` (reason `VOICE_NO_SPEECH`, `VOICE_TOO_SHORT`, `VOICE_TOO_QUIET` or
 * `VOICE_DIGITS_MISMATCH`). 410 `session_challenge_expired` for an unknown, used or expired
 * phrase (a recording cannot be replayed for another phrase); 413 `session_upload_too_large`;
 * 422 `session_upload_invalid` (not such a WAV, too long).
 */
export const VoiceRecordingFields = z.object({ phrase_id: z.string().check(z.maxLength(64)) });
export type VoiceRecordingFields = z.infer<typeof VoiceRecordingFields>;
