/**
 * Faces with @vladmandic/human on the tfjs WASM backend (models from its npm package, loaded
 * from disk): detection, descriptor for matching, emotion, anti-spoofing and liveness scores,
 * and the `face_annotation` likelihoods of the document portrait.
 */
import type { FaceResult } from '@vladmandic/human';
import { eyeLineOffset } from '../../../src/capture/liveness.js';
import { ALL_FACE_MODELS, getFaceEngine, type FaceModels } from '../engines.js';
import { cropGrey, fitRaster, laplacianVariance, toGrey, type Raster } from '../raster.js';
import type { Likelihood } from './dlp.js';
import type { PortraitQuality } from './portrait.js';

/** A detected face in the coordinates of the raster it was found in. */
export interface DetectedFace {
  /** [x, y, width, height]. */
  readonly box: readonly [number, number, number, number];
  readonly score: number;
  /** Face descriptor (1024 values) for matching; absent when the model could not compute it. */
  readonly embedding?: readonly number[];
  /** Emotion scores (happy, sad, angry, surprise, fear, disgust, neutral), 0-1. */
  readonly emotions: Readonly<Record<string, number>>;
  /** Anti-spoofing score: 1 = a real face, 0 = a photo/screen of a face. */
  readonly real?: number;
  /** Liveness score from the package's liveness model, 0-1. */
  readonly live?: number;
  /**
   * Horizontal head turn in image space, the widget's yaw on the mesh ({@link turnFromMesh}).
   * Negative = turned towards the image's left.
   */
  readonly turn: number;
  /**
   * The 468 face-mesh landmarks in raster pixels (x, y), in the model's fixed order, so the same
   * index is the same point of the face in every frame (planarity check).
   */
  readonly mesh?: readonly (readonly [number, number])[];
  /** Yaw / pitch / roll from the mesh, radians. */
  readonly angles?: { readonly yaw: number; readonly pitch: number; readonly roll: number };
  /** On a document portrait (portrait.ts): how far its descriptor can be trusted. */
  readonly portrait?: PortraitQuality;
}

/** Longest side faces are detected at: enough for a document portrait, bounded for speed. */
const FACE_SIDE = 1280;

/** Mean (x, y) of mesh points `idx`. */
function meanPoint(mesh: readonly (readonly (number | undefined)[])[], idx: readonly number[]): readonly [number, number] {
  let x = 0;
  let y = 0;
  for (const i of idx) {
    x += mesh[i]![0] ?? 0;
    y += mesh[i]![1] ?? 0;
  }
  return [x / idx.length, y / idx.length];
}

/**
 * The head turn measured as the widget measures it (`yawOf` in src/capture/liveness.ts): the nose
 * tip's offset from the middle of the eye centres along the eye line (a tilted head is not a
 * turned one), in eye-centre distances, clamped to -1..1. The
 * eye centres are the iris centres when the iris model ran (BlazeFace's eye keypoints are the eye's
 * centre), else the middle of each eye's corners. Measured on the outer eye corners instead, a turn
 * the widget saw change by 0.29 changed by 0.119 here and was refused after the widget accepted it.
 */
export function turnFromMesh(mesh: readonly (readonly (number | undefined)[])[]): number {
  if (mesh.length < 468) return 0;
  const iris = mesh.length >= 478;
  const right = iris ? meanPoint(mesh, [468]) : meanPoint(mesh, [33, 133]);
  const left = iris ? meanPoint(mesh, [473]) : meanPoint(mesh, [362, 263]);
  const nose = meanPoint(mesh, [1]);
  const at = (p: readonly [number, number]): { x: number; y: number } => ({ x: p[0], y: p[1] });
  return eyeLineOffset(at(right), at(left), at(nose));
}

function toDetected(f: FaceResult, scale: number): DetectedFace {
  const mesh = f.mesh;
  const turn = turnFromMesh(mesh);
  const emotions: Record<string, number> = {};
  for (const e of f.emotion ?? []) emotions[e.emotion] = e.score;
  const out: DetectedFace = {
    box: [f.box[0] * scale, f.box[1] * scale, f.box[2] * scale, f.box[3] * scale],
    score: f.score,
    emotions,
    turn,
    ...(f.embedding && f.embedding.length > 0 ? { embedding: [...f.embedding] } : {}),
    ...(typeof f.real === 'number' ? { real: f.real } : {}),
    ...(typeof f.live === 'number' ? { live: f.live } : {}),
    ...(mesh.length >= 468 ? { mesh: mesh.map((p) => [p[0] * scale, p[1] * scale] as const) } : {}),
    ...(f.rotation ? { angles: { yaw: f.rotation.angle.yaw, pitch: f.rotation.angle.pitch, roll: f.rotation.angle.roll } } : {}),
  };
  return out;
}

/** Detects faces (largest first) in a raster; `models` leaves out the per-face models a caller does not use. */
export async function detectFaces(raster: Raster, models: FaceModels = ALL_FACE_MODELS): Promise<DetectedFace[]> {
  const small = await fitRaster(raster, FACE_SIDE);
  let rgb: Uint8Array = small.data;
  if (small.channels === 1) {
    rgb = new Uint8Array(small.width * small.height * 3);
    for (let i = 0; i < small.data.length; i++) rgb.fill(small.data[i]!, i * 3, i * 3 + 3);
  }
  const engine = await getFaceEngine();
  const result = await engine.detect(rgb, small.width, small.height, models);
  const scale = raster.width / small.width;
  return result.face.map((f) => toDetected(f, scale)).sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
}

/** The descriptor scaled to unit length (all zeros stays all zeros). */
export function l2Normalise(v: readonly number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm > 0 ? v.map((x) => x / norm) : v.map(() => 0);
}

/**
 * Similarity of two face descriptors: the cosine of the L2-normalised embeddings, clamped to
 * 0-1 (negative cosines are as "different" as 0). The package's own `match.similarity` is a
 * scaled Euclidean distance on the raw descriptors, whose length varies with image quality:
 * on degraded selfies it let ~2-3 % of impostors through at its match threshold (issue 20).
 * Descriptors of different lengths never match.
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  const na = l2Normalise(a);
  const nb = l2Normalise(b);
  let dot = 0;
  for (let i = 0; i < na.length; i++) dot += na[i]! * nb[i]!;
  return Math.max(0, Math.min(1, dot));
}

/** {@link cosineSimilarity}, kept async for the callers written against the engine's matcher. */
export function faceSimilarity(a: readonly number[], b: readonly number[]): Promise<number> {
  return Promise.resolve(cosineSimilarity(a, b));
}

/** Maps a 0-1 score to the likelihood vocabulary. */
export function likelihood(p: number): Likelihood {
  if (p < 0.1) return 'VERY_UNLIKELY';
  if (p < 0.3) return 'UNLIKELY';
  if (p < 0.55) return 'POSSIBLE';
  if (p < 0.8) return 'LIKELY';
  return 'VERY_LIKELY';
}

/** The spec's `face_annotation` for one face; `headwearLikelihood` is UNKNOWN (no model for it). */
export interface FaceAnnotation {
  joyLikelihood: Likelihood;
  angerLikelihood: Likelihood;
  sorrowLikelihood: Likelihood;
  surpriseLikelihood: Likelihood;
  blurredLikelihood: Likelihood;
  underExposedLikelihood: Likelihood;
  headwearLikelihood: Likelihood | 'UNKNOWN';
}

/** Builds `face_annotation` from the face's emotions and its crop's sharpness and brightness. */
export function annotateFace(face: DetectedFace, raster: Raster): FaceAnnotation {
  const g = toGrey(raster);
  const [x, y, w, h] = face.box;
  const crop = cropGrey(g, x, y, w, h);
  // Sharpness on a face normalised to ~128 px wide: sample every k-th pixel.
  const k = Math.max(1, Math.round(crop.width / 128));
  const sw = Math.floor(crop.width / k);
  const sh = Math.floor(crop.height / k);
  const sampled = new Uint8Array(sw * sh);
  let sum = 0;
  for (let yy = 0; yy < sh; yy++) {
    for (let xx = 0; xx < sw; xx++) {
      const v = crop.data[yy * k * crop.width + xx * k]!;
      sampled[yy * sw + xx] = v;
      sum += v;
    }
  }
  const sharp = laplacianVariance({ data: sampled, width: sw, height: sh });
  const mean = sampled.length ? sum / sampled.length : 0;
  // A well-focused face at 128 px scores a few hundred; 20 or less is visibly blurred.
  const blurred = Math.max(0, Math.min(1, (120 - sharp) / 100));
  const dark = Math.max(0, Math.min(1, (90 - mean) / 60));
  const e = face.emotions;
  return {
    joyLikelihood: likelihood(e['happy'] ?? 0),
    angerLikelihood: likelihood(e['angry'] ?? 0),
    sorrowLikelihood: likelihood(e['sad'] ?? 0),
    surpriseLikelihood: likelihood(e['surprise'] ?? 0),
    blurredLikelihood: likelihood(blurred),
    underExposedLikelihood: likelihood(dark),
    headwearLikelihood: 'UNKNOWN',
  };
}
