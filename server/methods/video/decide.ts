/**
 * The Video method's decision, a pure function of the faces the analysis engine found in the
 * frames sampled from the recording. Every measure is the selfie and liveness analysis's own
 * (server/analysis/stages): the head-turn test of a challenge (`checkChallenge`), a second
 * person (`hasSecondFace`), the same person across frames (`FRAME_SAME_PERSON_THRESHOLD`), the
 * planarity of a turn (a print or a screen turns as a plane), the anti-spoof score and the
 * match with the document portrait (`matchPortrait`, on the straight look's `matchDescriptor`:
 * the selfie's comparison, so one face scores the same against one portrait in either method).
 */
import type { PortraitQuality } from '../../analysis/stages/portrait.js';
import type { VideoMove } from '../../../src/api/contract.js';
import type { DetectedFace } from '../../analysis/stages/face.js';
import { cosineSimilarity } from '../../analysis/stages/face.js';
import { PLANAR_RESIDUAL_MAX, planarityResidual } from '../../analysis/stages/liveness.js';
import {
  ANTISPOOF_THRESHOLD,
  FRAME_SAME_PERSON_THRESHOLD,
  TURN_DELTA,
  checkChallenge,
  hasSecondFace,
  matchPortrait,
  type FaceMatchBand,
} from '../../analysis/stages/selfie.js';

/** Closed set of reasons in the method's `attributes`. */
export const VideoReason = {
  NoFace: 'VIDEO_NO_FACE',
  MultipleFaces: 'VIDEO_MULTIPLE_FACES',
  DifferentPerson: 'VIDEO_DIFFERENT_PERSON_ACROSS_FRAMES',
  /** No turn at all was seen. */
  NoMove: 'VIDEO_MOVE_NOT_PERFORMED',
  /** Turns were seen, but not the ones asked, in their order. */
  WrongMove: 'VIDEO_WRONG_MOVE',
  /** A turn moved the face as a plane moves: a print or a screen. */
  PlanarFace: 'VIDEO_PLANAR_FACE',
  SpoofSuspected: 'VIDEO_SPOOF_SUSPECTED',
  ScreenReplay: 'VIDEO_SCREEN_REPLAY',
  FaceMismatch: 'VIDEO_FACE_MISMATCH',
  FaceMatchUncertain: 'VIDEO_FACE_MATCH_UNCERTAIN',
  /** The user has an identity document to match but no portrait was found on it. */
  NoReference: 'VIDEO_NO_REFERENCE_FACE',
} as const;
export type VideoReason = (typeof VideoReason)[keyof typeof VideoReason];

/**
 * Share of frames that may have no face (a frame blurred mid-turn, the face half out of view);
 * beyond it no face is present across the recording.
 */
export const MAX_FACELESS_SHARE = 0.2;

/** What the engine found in one sampled frame (largest face first). */
export interface VideoFrameFaces {
  readonly t: number;
  readonly faces: readonly DetectedFace[];
}

export interface VideoEvidence {
  readonly moves: readonly VideoMove[];
  readonly frames: readonly VideoFrameFaces[];
  /** The user's document portrait descriptor, when they have one. */
  readonly reference?: readonly number[];
  /** That portrait's stored quality: sets the match's band as it does for a selfie. */
  readonly referenceQuality?: PortraitQuality;
  /**
   * The straight look's descriptor for matching the portrait (`FramesResult.neutralMatch`);
   * without it the first face's own descriptor is matched, as a selfie's is when that crop fails.
   */
  readonly neutralMatch?: readonly number[];
  /** The user has a document method: without a portrait the match goes to review. */
  readonly requireReference: boolean;
  /** The moiré check found a screen in the straight frame. */
  readonly screenReplay: boolean;
}

export type VideoDecision = 'complete' | 'review' | 'rejected';
/** The face-match outcome in `attributes`: a band, or no portrait to match. */
export type VideoFaceMatch = FaceMatchBand | 'no_reference';

export interface VideoAnalysis {
  readonly decision: VideoDecision;
  readonly reasons: readonly VideoReason[];
  /** The turns seen, in order. */
  readonly moves_seen: readonly VideoMove[];
  readonly moved_as_asked: boolean;
  /** Most people seen in one frame. */
  readonly faces_seen: number;
  readonly frames_analysed: number;
  readonly frames_with_face: number;
  readonly face_match: VideoFaceMatch;
  readonly face_match_score?: number;
  /** Mean anti-spoof score over the frames' faces. */
  readonly antispoof?: number;
}

/**
 * The turns a face makes across frames, in order, measured from `neutral` with the liveness
 * challenge's own test. A turn starts when the test passes and ends when the face comes back
 * under half the turn threshold (hysteresis: a head hovering at the threshold is one turn, not
 * several). Returns each turn with its furthest frame.
 */
export function turnsOf(neutral: DetectedFace, faces: readonly DetectedFace[]): { move: VideoMove; peak: DetectedFace }[] {
  const turns: { move: VideoMove; peak: DetectedFace; measured: number }[] = [];
  let current: (typeof turns)[number] | null = null;
  for (const face of faces) {
    if (current) {
      const measured = checkChallenge(current.move, neutral, face).measured;
      if (measured >= TURN_DELTA / 2) {
        if (measured > current.measured) Object.assign(current, { peak: face, measured });
        continue;
      }
      current = null;
    }
    for (const move of ['turn_left', 'turn_right'] as const) {
      const outcome = checkChallenge(move, neutral, face);
      if (outcome.passed) {
        current = { move, peak: face, measured: outcome.measured };
        turns.push(current);
        break;
      }
    }
  }
  return turns.map(({ move, peak }) => ({ move, peak }));
}

/** Decides complete / review / rejected with reasons. */
export function decideVideo(e: VideoEvidence): VideoAnalysis {
  const reasons = new Set<VideoReason>();
  let reject = false;
  const fail = (reason: VideoReason): void => {
    reasons.add(reason);
    reject = true;
  };
  const withFace = e.frames.filter((f) => f.faces.length > 0);
  const facesSeen = e.frames.reduce((n, f) => Math.max(n, f.faces.length), 0);
  const base = { frames_analysed: e.frames.length, frames_with_face: withFace.length, faces_seen: facesSeen };
  if (withFace.length === 0 || e.frames.length - withFace.length > MAX_FACELESS_SHARE * e.frames.length) {
    return { decision: 'rejected', reasons: [VideoReason.NoFace], moves_seen: [], moved_as_asked: false, face_match: 'no_reference', ...base };
  }
  if (e.frames.some((f) => hasSecondFace(f.faces))) fail(VideoReason.MultipleFaces);
  const faces = withFace.map((f) => f.faces[0]!);
  // The recording starts looking straight (the widget asks for it): the first face is the neutral pose.
  const neutral = faces[0]!;
  if (neutral.embedding && faces.some((f) => f.embedding && cosineSimilarity(f.embedding, neutral.embedding!) < FRAME_SAME_PERSON_THRESHOLD)) {
    fail(VideoReason.DifferentPerson);
  }
  const turns = turnsOf(neutral, faces);
  const seen = turns.map((t) => t.move);
  const asked = seen.length === e.moves.length && seen.every((m, i) => m === e.moves[i]);
  if (turns.length === 0) fail(VideoReason.NoMove);
  else if (!asked) fail(VideoReason.WrongMove);
  for (const turn of turns) {
    const residual = planarityResidual(neutral, turn.peak);
    if (residual !== null && residual < PLANAR_RESIDUAL_MAX) fail(VideoReason.PlanarFace);
  }
  const scores = faces.map((f) => f.real).filter((x): x is number => typeof x === 'number');
  const antispoof = scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : undefined;
  if (antispoof !== undefined && antispoof < ANTISPOOF_THRESHOLD) fail(VideoReason.SpoofSuspected);
  if (e.screenReplay) fail(VideoReason.ScreenReplay);

  let faceMatch: VideoFaceMatch = 'no_reference';
  let score: number | undefined;
  const descriptor = e.neutralMatch ?? neutral.embedding;
  if (e.reference && descriptor) {
    const match = matchPortrait(descriptor, e.reference, e.referenceQuality);
    score = match.similarity;
    faceMatch = match.band;
    if (faceMatch === 'different') fail(VideoReason.FaceMismatch);
    if (faceMatch === 'uncertain') reasons.add(VideoReason.FaceMatchUncertain);
  } else if (e.requireReference) {
    reasons.add(VideoReason.NoReference);
  }
  const list = [...reasons];
  return {
    decision: reject ? 'rejected' : list.length > 0 ? 'review' : 'complete',
    reasons: list,
    moves_seen: seen,
    moved_as_asked: asked,
    ...base,
    face_match: faceMatch,
    ...(score !== undefined ? { face_match_score: score } : {}),
    ...(antispoof !== undefined ? { antispoof } : {}),
  };
}
