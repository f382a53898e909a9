/** Messages between the page ({@link FaceModel}) and the face worker (face-worker.ts). */
import type { DetectedFace } from './face-detector.js';

/** Page → worker. */
export type FaceWorkerRequest =
  /** Load the model from the asset base (an absolute URL ending in `/`); answered by `ready` or `failed`. */
  | { type: 'load'; assetBase: string }
  /** Detect faces in one transferred frame; answered by `faces` or `failed` with the same id. */
  | { type: 'detect'; id: number; frame: ImageBitmap; timestamp: number };

/** Worker → page. */
export type FaceWorkerReply =
  | { type: 'ready' }
  | { type: 'faces'; id: number; faces: DetectedFace[] }
  /** Loading failed (no `id`) or one detection did (`id`). */
  | { type: 'failed'; id?: number; message: string };
