import { randomInt } from 'node:crypto';
import type { ChallengeStep, FaceMethodKey } from '../../../src/api/contract.js';

/** Face challenges must be answered within this time. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

const CHALLENGE_MOVES: ChallengeStep[] = ['turn_left', 'turn_right', 'come_closer'];

/** A selfie looks straight; liveness adds two or three of the moves, in a random order. */
export function challengeSteps(key: FaceMethodKey): ChallengeStep[] {
  if (key !== 'liveness') return ['look_straight'];
  const moves = [...CHALLENGE_MOVES];
  for (let i = moves.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [moves[i], moves[j]] = [moves[j]!, moves[i]!];
  }
  return ['look_straight', ...moves.slice(0, randomInt(2, 4))];
}
