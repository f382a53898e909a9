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

/** Colours the flash draws from: saturated, far apart in chroma, so the face's response is large. */
export const FLASH_PALETTE = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#ff00ff', '#00ffff'] as const;
/**
 * Colours per flash and how long each stays: 2 changes a second (photosensitivity: at most 3).
 * Ten, not six: a replay recorded under another random sequence correlates above the flash
 * threshold (0.6) with a chance of 3.1 % for six colours, 0.54 % for ten (Monte Carlo over the
 * palette, docs/analysis.md); the flash lasts 5 s.
 */
export const FLASH_COLOURS = 10;
export const FLASH_COLOUR_MS = 500;
/** The blink window, the most frames taken through it, and the fewest that must arrive. */
export const BLINK_WINDOW_MS = 2_500;
export const BLINK_FRAMES = 12;
export const BLINK_MIN_FRAMES = 8;

/** The flash's colours: random from the palette, never the same twice in a row. */
export function flashColours(): string[] {
  const out: string[] = [];
  while (out.length < FLASH_COLOURS) {
    const c = FLASH_PALETTE[randomInt(0, FLASH_PALETTE.length)]!;
    if (c !== out.at(-1)) out.push(c);
  }
  return out;
}

/** The most frames step `step` takes, and the fewest it must have at submit. */
export function stepFrames(step: ChallengeStep, framesPerStep: number, minPerMove: number): { max: number; min: number } {
  switch (step) {
    case 'look_straight':
      return { max: framesPerStep, min: 1 };
    case 'flash':
      return { max: FLASH_COLOURS, min: FLASH_COLOURS };
    case 'blink':
      return { max: BLINK_FRAMES, min: BLINK_MIN_FRAMES };
    default:
      return { max: framesPerStep, min: minPerMove };
  }
}

const CHALLENGE_MOVES: ChallengeStep[] = ['turn_left', 'turn_right', 'come_closer'];

/**
 * A selfie looks straight; liveness flashes colours at the straight face, then asks for two or
 * three of the moves in a random order, then a blink. Two of the three moves always include a
 * turn, which the planarity check needs (a plane can come closer too).
 */
export function challengeSteps(key: FaceMethodKey): ChallengeStep[] {
  if (key !== 'liveness') return ['look_straight'];
  const moves = [...CHALLENGE_MOVES];
  for (let i = moves.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [moves[i], moves[j]] = [moves[j]!, moves[i]!];
  }
  return ['look_straight', 'flash', ...moves.slice(0, randomInt(2, 4)), 'blink'];
}
