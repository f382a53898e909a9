/** Public types of the analysis engine (spec section 2.7 `content`, minus `url`). */
import type { ProcessorField } from './stages/aamva.js';
import type { DecodeVia } from './stages/barcode.js';
import type { InfoType, Likelihood } from './stages/dlp.js';
import type { DocType } from './stages/doc-type.js';
import type { ExifEntry } from './stages/exif.js';
import type { DetectedFace, FaceAnnotation } from './stages/face.js';
import type { MrzData } from './stages/mrz.js';
import type { DocumentAddress, UserAddressComparison } from './stages/address.js';
import type { NameMatch } from './stages/name-match.js';
import type { PortraitQuality } from './stages/portrait.js';
import type { QualityIssue } from './stages/quality.js';
import type { ChallengeOutcome, LivenessChallenge, SelfieDecision, SelfieReason } from './stages/selfie.js';

export type {
  ProcessorField,
  InfoType,
  Likelihood,
  DocType,
  ExifEntry,
  FaceAnnotation,
  MrzData,
  DocumentAddress,
  UserAddressComparison,
  NameMatch,
  QualityIssue,
  LivenessChallenge,
  SelfieDecision,
  SelfieReason,
  ChallengeOutcome,
};

/** `ai_analysis`; each member is present only when the check could be done. */
export interface AiAnalysis {
  name_match?: NameMatch;
  selfie_check?: boolean;
  internet_detection?: boolean;
  internet_detection_location?: { guess_labels: string[] };
}

/** `document_data.content` as the spec lists it, without `url` (the server adds it). */
export interface DocumentContent {
  hash: string;
  name: string;
  original_name: string;
  extension: string;
  type: string;
  size: number;
  time: number;
  doc_type?: DocType;
  doc_type_id?: number;
  mrz_data: MrzData[];
  exif_data: ExifEntry[];
  valid_address: DocumentAddress[];
  valid_user_address: UserAddressComparison[];
  photoshopped?: boolean;
  ai_analysis: AiAnalysis;
  dlp_analysis: { info_types: InfoType[] };
  face_annotation?: FaceAnnotation;
  document_processor: Record<string, ProcessorField>;
}

/** What the user told the customer about themselves (compared with the document). */
export interface UserClaims {
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly address?: string | null;
}

export interface AnalyseDocumentInput {
  /** The uploaded bytes, untrusted. */
  readonly bytes: Buffer;
  /** The uploaded file name (only reported, never trusted for the type). */
  readonly originalName?: string;
}

export interface AnalyseDocumentOptions {
  /** When the upload was received (for `time`); default now. */
  readonly receivedAt?: Date;
  /** "Today" for ages and expiry; default now. */
  readonly today?: Date;
  /** The user's own data, for `name_match` and `valid_user_address`. */
  readonly user?: UserClaims;
  /** A selfie to compare with the document portrait (`selfie_check`). */
  readonly selfie?: Buffer;
}

/** The result of {@link analyseDocument}. */
export interface DocumentAnalysis {
  readonly status: 'Success' | 'Failed';
  /** Why it failed (null on success). */
  readonly reason: string | null;
  /** Machine-readable failure code (input error, quality issue, `MRZ_CHECK_FAILED`). */
  readonly failure_code: string | null;
  readonly doc_type: DocType | null;
  /** Null only when the input itself was refused. */
  readonly content: DocumentContent | null;
  /** Metadata-free JPEG to store (null when the input was refused). */
  readonly derivative: Buffer | null;
  readonly derivative_type: 'image/jpeg';
  /** Descriptor of the document portrait, to keep as the reference for later selfies. */
  readonly portrait_embedding: number[] | null;
  /** How far that descriptor can be trusted (stages/portrait.ts), kept beside it: later matches use it for their band. */
  readonly portrait_quality?: PortraitQuality | null;
  /**
   * Where the `document_processor` fields came from: a decoded AAMVA barcode, an MRZ (and
   * whether its check digits hold), or only OCR of printed text (not machine-verifiable).
   * Null when the analysis stopped before reading the document. `mrz_doubts`: the MRZ fields of
   * a valid MRZ its OCR passes do not vouch for (stages/mrz-doubt.ts: names, sex, nationality,
   * issuing_state, document_code, document_number, optional_data); absent or empty when none.
   * `barcode_via`: which attempt decoded the PDF417 (stages/barcode.ts), when one did.
   */
  readonly evidence: {
    readonly barcode: boolean;
    readonly barcode_via?: DecodeVia;
    readonly mrz: 'valid' | 'invalid' | null;
    readonly mrz_doubts?: readonly string[];
    readonly face: boolean;
  } | null;
  /** Milliseconds spent per stage. */
  readonly timings: Record<string, number>;
}

export interface SelfieFrame {
  readonly bytes: Buffer;
  readonly challenge: LivenessChallenge;
  /** Index of the challenge step: the dense frames of one move share it. */
  readonly step?: number;
}

export interface AnalyseSelfieInput {
  readonly selfie: Buffer;
  /** Liveness frames from the widget, first one neutral. */
  readonly frames?: readonly SelfieFrame[];
}

export interface AnalyseSelfieOptions {
  /** Reference face: a stored portrait descriptor, or a document image to take it from. */
  readonly referenceEmbedding?: readonly number[];
  /** The stored quality of that portrait (absent for portraits stored before it was kept). */
  readonly referenceQuality?: PortraitQuality;
  readonly referenceDocument?: Buffer;
  /** Require a reference face (ID + selfie templates); missing → review. */
  readonly requireReference?: boolean;
  /** The `liveness` method: dense frames, continuity and planarity are required of every turn. */
  readonly activeLiveness?: boolean;
  /** The colours (`#rrggbb`) the challenge flashed, in order: the `flash` frames must follow them. */
  readonly flashColours?: readonly string[];
  /** The challenge asked for a blink: the `blink` frames must show one. */
  readonly requireBlink?: boolean;
}

export interface SelfieResult {
  readonly decision: SelfieDecision;
  readonly reasons: readonly SelfieReason[];
  readonly similarity?: number;
  readonly selfie_check?: boolean;
  readonly challenges: readonly ChallengeOutcome[];
  readonly antispoof?: number;
  readonly liveness?: number;
  readonly flash_correlation?: number;
  /** Metadata-free JPEG of the selfie to store. */
  readonly derivative: Buffer | null;
  /** Selfie descriptor (for later re-verification). */
  readonly embedding: number[] | null;
  readonly timings: Record<string, number>;
}

/** Frames sampled from a video, in capture order (the Video method). */
export interface AnalyseFramesInput {
  readonly frames: readonly Buffer[];
}

/** The faces of each frame (largest first; none for a frame that could not be read). */
export interface FramesResult {
  readonly frames: readonly (readonly DetectedFace[])[];
  /** True when the moiré check found a screen in the first frame (the straight look). */
  readonly screenReplay: boolean;
  /**
   * The first face's descriptor for matching a document portrait (`matchDescriptor`), taken on
   * the first frame with a face (the straight look); absent when no frame has one.
   */
  readonly neutralMatch?: readonly number[];
  readonly timings: Record<string, number>;
}
