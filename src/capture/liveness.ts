/**
 * Active liveness judged on the device from BlazeFace's box and keypoints (pure functions).
 * Frames are in camera coordinates (not mirrored), normalised 0..1. The server receives a frame
 * and the measured geometry for each step and checks them again.
 */
import type { ChallengeStep } from '../api/contract.js';
import type { DetectedFace } from './detected-face.js';

/** Problems that stop a face frame from counting, in rank order. */
export const FACE_HINTS = ['TOO_DARK', 'NO_FACE', 'MULTIPLE_FACES', 'TOO_FAR', 'TOO_CLOSE', 'NOT_CENTERED'] as const;
/** One of {@link FACE_HINTS}. */
export type FaceHint = (typeof FACE_HINTS)[number];

/** Limits for the judgement. */
export const LIVENESS_LIMITS = {
  minMeanLuma: 50,
  minFaceWidth: 0.18,
  maxFaceWidth: 0.8,
  /**
   * |yaw| at most this counts as looking straight. 0.25, not 0.15: measured along the eye line,
   * BlazeFace put the nose 0.22 eye distances aside on a person looking into the camera (the e2e
   * camera's face), who then could not take a selfie. The moves are measured from the straight
   * look's own yaw, so a looser start does not make a turn easier.
   */
  straightYaw: 0.25,
  /**
   * A turn is a yaw change of at least this from the straight look's (the server measures the
   * turn from the straight look too: a face that looked a little aside passed an absolute gate
   * with half the turn, which the server then refused).
   */
  turnYaw: 0.3,
  /**
   * While a turn is being held, a frame whose yaw change stays at least this keeps the frames
   * counted so far (it does not add one): the keypoints jitter by about ±0.03 a frame, so a head
   * held just past the gate dipped under it every few frames and the count started again
   * (development face 0, second take, timed out holding 0.28-0.33). 0.2 is the server's
   * `TURN_DELTA`: a frame kept in the count is still a turn the server accepts. The frame that
   * completes the move meets the full gate.
   */
  turnHoldYaw: 0.2,
  /** Face width growth (vs. the straight frame) that counts as coming closer. */
  closerRatio: 1.2,
  /** Consecutive frames a pose must hold. */
  holdFrames: 3,
} as const;

/**
 * Head yaw from keypoints: how far the nose tip sits from the middle of the eyes along the line
 * through the eyes, in eye distances, clamped to -1..1. Positive when the user turns to their
 * left (their nose moves to the right of a non-mirrored camera image). Along the eye line, not
 * the image's x: the nose sits about 0.6 eye distances below the eyes, so a head tilted 25° read
 * as turned by 0.25 in image x, and such a user was never let past the straight look.
 */
export function yawOf(face: DetectedFace): number {
  const [rightEye, leftEye, nose] = face.keypoints;
  if (!rightEye || !leftEye || !nose) return 0;
  // Keypoints are normalised by the frame's width (x) and height (y): back to one unit first.
  const aspect = face.aspect ?? 1;
  const square = (p: Point): Point => ({ x: p.x * aspect, y: p.y });
  return eyeLineOffset(square(rightEye), square(leftEye), square(nose));
}

/**
 * The offset of `nose` from the middle of the eyes, projected on the eye line and divided by the
 * eye distance, clamped to -1..1; 0 when the eyes coincide. The server measures the turn with the
 * same function on the face mesh (server/analysis/stages/face.ts).
 */
export function eyeLineOffset(rightEye: Point, leftEye: Point, nose: Point): number {
  // The eye line oriented towards the image's right, whichever eye a detector lists first (the
  // sign then means what it meant in image x: positive when the nose moves to the image's right).
  const flip = leftEye.x < rightEye.x ? -1 : 1;
  const ex = flip * (leftEye.x - rightEye.x);
  const ey = flip * (leftEye.y - rightEye.y);
  const span2 = ex * ex + ey * ey;
  if (span2 === 0) return 0;
  const dx = nose.x - (leftEye.x + rightEye.x) / 2;
  const dy = nose.y - (leftEye.y + rightEye.y) / 2;
  return Math.max(-1, Math.min(1, (dx * ex + dy * ey) / span2));
}

/** A point in a frame. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** The first problem with a frame's faces, or null when exactly one usable face is present. */
export function faceHint(faces: DetectedFace[], meanLuma: number, limits = LIVENESS_LIMITS): FaceHint | null {
  if (meanLuma < limits.minMeanLuma) return 'TOO_DARK';
  if (faces.length === 0) return 'NO_FACE';
  if (faces.length > 1) return 'MULTIPLE_FACES';
  const { box } = faces[0]!;
  if (box.width < limits.minFaceWidth) return 'TOO_FAR';
  if (box.width > limits.maxFaceWidth) return 'TOO_CLOSE';
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  if (cx < 0.2 || cx > 0.8 || cy < 0.15 || cy > 0.85) return 'NOT_CENTERED';
  return null;
}

/**
 * Whether `face` performs `step`; `baselineWidth` and `baselineYaw` are the face's width and yaw
 * when it looked straight.
 */
export function meetsStep(step: ChallengeStep, face: DetectedFace, baselineWidth: number | null, limits = LIVENESS_LIMITS, baselineYaw = 0): boolean {
  const yaw = yawOf(face);
  switch (step) {
    case 'look_straight':
      return Math.abs(yaw) <= limits.straightYaw;
    case 'turn_left':
      return yaw - baselineYaw >= limits.turnYaw;
    case 'turn_right':
      return baselineYaw - yaw >= limits.turnYaw;
    case 'come_closer':
      return baselineWidth !== null && face.box.width >= baselineWidth * limits.closerRatio && Math.abs(yaw) <= limits.turnYaw;
    case 'flash':
    case 'blink':
      // Timed steps: they end when their time is over (see advance()), judged on the server.
      return false;
  }
}

/** Whether `face`, during a turn being held, is still turned at least {@link LIVENESS_LIMITS.turnHoldYaw} the asked way. */
function holdsTurn(step: ChallengeStep, face: DetectedFace, limits: typeof LIVENESS_LIMITS, baselineYaw: number): boolean {
  const change = yawOf(face) - baselineYaw;
  if (step === 'turn_left') return change >= limits.turnHoldYaw;
  if (step === 'turn_right') return -change >= limits.turnHoldYaw;
  return false;
}

/** Steps that last a set time instead of ending on a pose: the screen flash and the blink window. */
export function isTimedStep(step: ChallengeStep | null): step is 'flash' | 'blink' {
  return step === 'flash' || step === 'blink';
}

/** What one frame did to the challenge. */
export interface ChallengeUpdate {
  hint: FaceHint | null;
  /** Index of the step completed by this frame, if any. */
  completed: number | null;
  /** The face that completed it. */
  face: DetectedFace | null;
}

/** Walks through a challenge's steps frame by frame. */
export class ChallengeJudge {
  private index = 0;
  private held = 0;
  private baselineWidth: number | null = null;
  private baselineYaw = 0;

  constructor(
    readonly steps: readonly ChallengeStep[],
    private readonly limits = LIVENESS_LIMITS,
  ) {}

  /** The step being asked for, or null when all are done. */
  get current(): ChallengeStep | null {
    return this.steps[this.index] ?? null;
  }

  /** Index of the current step. */
  get currentIndex(): number {
    return this.index;
  }

  /** True once every step was performed. */
  get done(): boolean {
    return this.index >= this.steps.length;
  }

  /** Ends the current (timed) step; returns its index. */
  advance(): number {
    this.held = 0;
    return this.index++;
  }

  /** Feeds one frame's faces and mean luma. */
  push(faces: DetectedFace[], meanLuma: number): ChallengeUpdate {
    const step = this.current;
    if (!step) return { hint: null, completed: null, face: null };
    // Turning the head moves the face off-centre and coming closer enlarges it: only the
    // presence, count and light rules apply to those steps.
    const hint = faceHint(faces, meanLuma, this.limits);
    const blocking = hint === 'TOO_DARK' || hint === 'NO_FACE' || hint === 'MULTIPLE_FACES' || (step === 'look_straight' && hint !== null);
    if (blocking) {
      this.held = 0;
      return { hint, completed: null, face: null };
    }
    const face = faces[0]!;
    this.baselineWidth ??= face.box.width;
    if (!meetsStep(step, face, this.baselineWidth, this.limits, this.baselineYaw)) {
      // A held turn dipping under the gate by the keypoints' jitter keeps its count.
      if (this.held > 0 && holdsTurn(step, face, this.limits, this.baselineYaw)) return { hint, completed: null, face: null };
      this.held = 0;
      return { hint, completed: null, face: null };
    }
    this.held += 1;
    if (this.held < this.limits.holdFrames) return { hint, completed: null, face: null };
    if (step === 'look_straight') {
      this.baselineWidth = face.box.width;
      this.baselineYaw = yawOf(face);
    }
    const completed = this.index;
    this.index += 1;
    this.held = 0;
    return { hint, completed, face };
  }
}
