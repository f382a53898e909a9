import type { ChallengeStep, FaceEvidence, VideoMove } from '../../src/api/contract.js';

/**
 * The queue the analysis engine (`server/analysis/`) consumes. The session API enqueues one job
 * per submitted method, in the same transaction that moves the method to `processing`; the method
 * stays `processing` until the engine moves it on (through `moveVerification` /
 * `moveDocumentWorkflow`, so events and the user status follow the rules).
 */
export const ANALYSIS_QUEUE = 'analysis';

/** One stored image (blob key in the BlobStore, `users/<id>/…`). */
export interface AnalysisImage {
  uploadId: string;
  blobKey: string;
  mediaType: string;
  size: number;
}

/** A document submitted from the hosted page / widget. */
export interface DocumentAnalysisJob {
  kind: 'document';
  userId: number;
  /** Always 3 (Document / ID). */
  methodId: number;
  /** The user workflow moved to `processing` for this submission; null when the user has none. */
  workflowRawId: number | null;
  /** `passport`, `id_card`, `driving_licence`, … */
  documentType: string;
  front: AnalysisImage & { source: 'camera' | 'upload'; quality: unknown };
  back: (AnalysisImage & { source: 'camera' | 'upload'; quality: unknown }) | null;
  submittedAt: string;
}

/** A selfie or an active-liveness capture: one frame per challenge step, with the device's face geometry. */
export interface FaceAnalysisJob {
  kind: 'face';
  userId: number;
  /** 22 (Selfie) or 20 (Liveness). */
  methodId: number;
  methodKey: 'selfie' | 'liveness';
  challengeId: string;
  steps: ChallengeStep[];
  /** Every frame in capture order: steps in order, a move's dense frames together, the held pose last. */
  frames: (AnalysisImage & { stepIndex: number; step: ChallengeStep; evidence: FaceEvidence })[];
  /** The last attempt (issue 20): a capture that fails the checks goes to a reviewer, not rejected. */
  reviewOnFailure?: boolean;
  /** The colours the challenge's `flash` step showed, in order (liveness). */
  flashColours?: string[];
  submittedAt: string;
}

/** A video recorded for a challenge of head moves (the Video method): the frames sampled from it. */
export interface VideoAnalysisJob {
  kind: 'video';
  userId: number;
  /** 5 (Video). */
  methodId: number;
  challengeId: string;
  moves: VideoMove[];
  /** The sampled frames in capture order, with their time since the challenge was shown (ms). */
  frames: (AnalysisImage & { t: number })[];
  /** The recording kept for the record (a reviewer can watch it). */
  recording: AnalysisImage & { durationMs: number };
  submittedAt: string;
}

/** Every job of {@link ANALYSIS_QUEUE}. */
export type AnalysisJob = DocumentAnalysisJob | FaceAnalysisJob | VideoAnalysisJob;
