import { randomInt } from 'node:crypto';
import type { ChallengeStep, FaceMethodKey } from '../../../src/api/contract.js';

/** A selfie challenge must be answered within this time. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/**
 * An active-liveness challenge must be answered within this time: a few moves take well under a
 * minute, and a short window leaves little time to prepare frames for a challenge once it is seen.
 */
export const LIVENESS_TTL_MS = 2 * 60 * 1000;
/** The frames of one step must all arrive within this time of its first (a move lasts ~1-2 s; uploads on a slow phone). */
export const STEP_WINDOW_MS = 15_000;
/** Slack between the device's clock (`evidence.t`) and the server's when checking that a frame claims no more time than has passed. */
export const CLOCK_SLACK_MS = 2_000;
/** Normal attempts (challenges) per method before the last one, which goes to review on failure. */
export const FACE_ATTEMPTS = 3;

/** The dense-frame rules of a method: selfies take one still; liveness moves need several. */
export function framesRule(key: FaceMethodKey): { framesPerStep: number; minFramesPerMove: number; ttlMs: number } {
  return key === 'liveness'
    ? { framesPerStep: 6, minFramesPerMove: 3, ttlMs: LIVENESS_TTL_MS }
    : { framesPerStep: 1, minFramesPerMove: 1, ttlMs: CHALLENGE_TTL_MS };
}

const CHALLENGE_MOVES: ChallengeStep[] = ['turn_left', 'turn_right', 'come_closer'];

/**
 * A selfie looks straight; liveness adds two or three of the moves, in a random order. Two of
 * the three always include a turn, which the planarity check needs (a plane can come closer too).
 */
export function challengeSteps(key: FaceMethodKey): ChallengeStep[] {
  if (key !== 'liveness') return ['look_straight'];
  const moves = [...CHALLENGE_MOVES];
  for (let i = moves.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [moves[i], moves[j]] = [moves[j]!, moves[i]!];
  }
  return ['look_straight', ...moves.slice(0, randomInt(2, 4))];
}
