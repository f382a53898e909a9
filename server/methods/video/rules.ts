import { randomInt } from 'node:crypto';
import type { VideoMove } from '../../../src/api/contract.js';
import type { ChallengeRule } from '../challenge-attempts.js';

/**
 * A video challenge must be recorded and sent within 2 minutes of being issued: reading the moves
 * and recording takes well under a minute, and a short window leaves little time to prepare a
 * fake recording once the moves are known. Three challenges (attempts) per method; then 429
 * `session_attempts_exceeded`.
 */
export const VIDEO_CHALLENGES: ChallengeRule = { ttlMs: 2 * 60 * 1000, attempts: 3 };
/** The recording's length bounds (the 3-6 s), in ms; the widget records 5 s. */
export const MIN_DURATION_MS = 3000;
export const MAX_DURATION_MS = 6000;
/** Frames the browser samples from the recording: fewer cannot show a move, more cost analysis time. */
export const MIN_FRAMES = 8;
export const MAX_FRAMES = 12;
/**
 * The sampled frames must span at least this much of the recording: frames bunched in one
 * instant cannot show moves made over seconds.
 */
export const MIN_FRAME_SPAN_MS = 2000;

/**
 * The move sequences a challenge is drawn from: two or three turns, alternating, so each starts
 * and ends looking straight. Four sequences: a recording made for one answers another only by
 * chance, and never for a nonce other than its own (frames are bound to their challenge).
 */
export const MOVE_SEQUENCES: readonly (readonly VideoMove[])[] = [
  ['turn_left', 'turn_right'],
  ['turn_right', 'turn_left'],
  ['turn_left', 'turn_right', 'turn_left'],
  ['turn_right', 'turn_left', 'turn_right'],
];

/** A random move sequence (crypto randomness: the next challenge cannot be predicted). */
export function drawMoves(): VideoMove[] {
  return [...MOVE_SEQUENCES[randomInt(0, MOVE_SEQUENCES.length)]!];
}

/** Whether a recording of `durationMs` is within the bounds. */
export function durationAllowed(durationMs: number): boolean {
  return durationMs >= MIN_DURATION_MS && durationMs <= MAX_DURATION_MS;
}

/**
 * Why a frame's time `t` (ms since the challenge was shown) cannot be right, or null: it must
 * come after the previous frame's, and claim no more time than has passed on the server since
 * the challenge was issued (plus `slackMs` for the two clocks).
 */
export function frameTimeProblem(t: number, previousT: number | null, elapsedMs: number, slackMs: number): string | null {
  if (previousT !== null && t <= previousT) return 'Frames must be captured one after another.';
  if (t > elapsedMs + slackMs) return 'This frame claims a time after it reached the server.';
  return null;
}

/**
 * Why the frames of a submitted capture cannot be analysed, or null: `times` are the frames'
 * `t` in index order; the recording's length is `durationMs`.
 */
export function captureProblem(times: readonly number[], durationMs: number | null): string | null {
  if (durationMs === null) return 'The recording is missing.';
  if (times.length < MIN_FRAMES) return `At least ${MIN_FRAMES} frames are needed.`;
  const span = times.at(-1)! - times[0]!;
  if (span < MIN_FRAME_SPAN_MS) return 'The frames cover too short a part of the recording.';
  // Frames were sampled during the recording: they cannot span more than it lasted (one frame's slack).
  if (span > durationMs + 1000) return 'The frames span more time than the recording lasted.';
  return null;
}
