/**
 * Task handler run inside the pool's worker threads. Each thread loads the engines once
 * (first task or `warmup`) and keeps them for its lifetime.
 */
import type { PortraitQuality } from './stages/portrait.js';
import { getFaceEngine, getTesseract, getZxing, ocrbDataDir } from './engines.js';
import { analyseFrames } from './frames.js';
import { analyseDocument } from './pipeline.js';
import { analyseSelfie } from './selfie-pipeline.js';
import type { AnalyseDocumentOptions, AnalyseSelfieOptions, DocumentAnalysis, FramesResult, LivenessChallenge, SelfieResult, UserClaims } from './types.js';

/** Tasks as they cross the thread boundary (Buffers arrive as Uint8Arrays). */
export type PoolTask =
  | { kind: 'warmup' }
  | {
      kind: 'document';
      bytes: Uint8Array;
      originalName?: string;
      receivedAt?: number;
      today?: number;
      user?: UserClaims;
      selfie?: Uint8Array;
    }
  | {
      kind: 'selfie';
      selfie: Uint8Array;
      frames?: { bytes: Uint8Array; challenge: LivenessChallenge; step?: number }[];
      referenceEmbedding?: number[];
      referenceQuality?: PortraitQuality;
      referenceDocument?: Uint8Array;
      requireReference?: boolean;
      activeLiveness?: boolean;
      flashColours?: string[];
      requireBlink?: boolean;
    }
  | { kind: 'frames'; frames: Uint8Array[] };

export type PoolResult =
  | { kind: 'warmup'; ms: number }
  | { kind: 'document'; result: DocumentAnalysis }
  | { kind: 'selfie'; result: SelfieResult }
  | { kind: 'frames'; result: FramesResult };

const buf = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** Runs one task. */
export async function runTask(task: PoolTask): Promise<PoolResult> {
  switch (task.kind) {
    case 'warmup': {
      const t = performance.now();
      await Promise.all([getZxing(), getTesseract('mrz'), ...(ocrbDataDir() ? [getTesseract('mrz-ocrb')] : []), getTesseract('text'), getFaceEngine()]);
      return { kind: 'warmup', ms: Math.round(performance.now() - t) };
    }
    case 'document': {
      const options: AnalyseDocumentOptions = {
        ...(task.receivedAt !== undefined ? { receivedAt: new Date(task.receivedAt) } : {}),
        ...(task.today !== undefined ? { today: new Date(task.today) } : {}),
        ...(task.user ? { user: task.user } : {}),
        ...(task.selfie ? { selfie: buf(task.selfie) } : {}),
      };
      const result = await analyseDocument(
        { bytes: buf(task.bytes), ...(task.originalName !== undefined ? { originalName: task.originalName } : {}) },
        options,
      );
      return { kind: 'document', result };
    }
    case 'selfie': {
      const options: AnalyseSelfieOptions = {
        ...(task.referenceEmbedding ? { referenceEmbedding: task.referenceEmbedding } : {}),
        ...(task.referenceQuality ? { referenceQuality: task.referenceQuality } : {}),
        ...(task.referenceDocument ? { referenceDocument: buf(task.referenceDocument) } : {}),
        ...(task.requireReference !== undefined ? { requireReference: task.requireReference } : {}),
        ...(task.activeLiveness !== undefined ? { activeLiveness: task.activeLiveness } : {}),
        ...(task.flashColours ? { flashColours: task.flashColours } : {}),
        ...(task.requireBlink !== undefined ? { requireBlink: task.requireBlink } : {}),
      };
      const result = await analyseSelfie(
        {
          selfie: buf(task.selfie),
          ...(task.frames
            ? { frames: task.frames.map((f) => ({ bytes: buf(f.bytes), challenge: f.challenge, ...(f.step !== undefined ? { step: f.step } : {}) })) }
            : {}),
        },
        options,
      );
      return { kind: 'selfie', result };
    }
    case 'frames':
      return { kind: 'frames', result: await analyseFrames({ frames: task.frames.map(buf) }) };
  }
}
