/**
 * A worker-thread pool (piscina) around the analysis engine, so the API thread stays
 * responsive while documents are analysed. The server calls it from a queue job.
 *
 * Each thread holds its own engines (~0.6-0.8 GB with the face models), so the default is one
 * thread per two cores; raise `maxThreads` on bigger machines.
 */
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { typescriptPool } from '../threads/typescript-pool.js';
import type {
  AnalyseDocumentInput,
  AnalyseDocumentOptions,
  AnalyseFramesInput,
  AnalyseSelfieInput,
  AnalyseSelfieOptions,
  DocumentAnalysis,
  FramesResult,
  SelfieResult,
} from './types.js';
import type { PoolResult, PoolTask } from './worker.js';

export interface AnalysisPoolOptions {
  /** Worker threads (default: half the cores, at least 1). */
  readonly maxThreads?: number;
  /** Queued tasks beyond which `run` rejects (default 256). */
  readonly maxQueue?: number;
  /** Load the engines in every thread at start instead of on the first task. */
  readonly warm?: boolean;
  /**
   * Added to the threads' nice value (default 10): analysis yields the cores to the API's
   * event loop, so a saturated pool slows requests less; 0 runs them at the server's priority.
   */
  readonly niceIncrement?: number;
}

const toBuffer = (u: Uint8Array | null): Buffer | null => (u ? Buffer.from(u.buffer, u.byteOffset, u.byteLength) : null);

/** The analysis pool. */
export class AnalysisPool {
  readonly #pool: Piscina<PoolTask, PoolResult>;

  constructor(options: AnalysisPoolOptions = {}) {
    const threads = options.maxThreads ?? Math.max(1, Math.floor(availableParallelism() / 2));
    this.#pool = typescriptPool<PoolTask, PoolResult>(new URL('./worker.ts', import.meta.url), 'runTask', {
      minThreads: options.warm ? threads : 0,
      maxThreads: threads,
      maxQueue: options.maxQueue ?? 256,
      // Engines take seconds to load: keep idle threads for 10 minutes.
      idleTimeout: 10 * 60_000,
      niceIncrement: options.niceIncrement ?? 10,
    });
  }

  /** Loads the engines in one thread ahead of the first job; resolves with the load time. */
  async warmup(): Promise<number> {
    const r = await this.#pool.run({ kind: 'warmup' });
    return r.kind === 'warmup' ? r.ms : 0;
  }

  /** {@link analyseDocument} in a worker thread. */
  async analyseDocument(input: AnalyseDocumentInput, options: AnalyseDocumentOptions = {}): Promise<DocumentAnalysis> {
    const task: PoolTask = {
      kind: 'document',
      bytes: input.bytes,
      ...(input.originalName !== undefined ? { originalName: input.originalName } : {}),
      ...(options.receivedAt ? { receivedAt: options.receivedAt.getTime() } : {}),
      ...(options.today ? { today: options.today.getTime() } : {}),
      ...(options.user ? { user: options.user } : {}),
      ...(options.selfie ? { selfie: options.selfie } : {}),
    };
    const r = await this.#pool.run(task);
    if (r.kind !== 'document') throw new Error('Unexpected pool result');
    return { ...r.result, derivative: toBuffer(r.result.derivative) };
  }

  /** {@link analyseSelfie} in a worker thread. */
  async analyseSelfie(input: AnalyseSelfieInput, options: AnalyseSelfieOptions = {}): Promise<SelfieResult> {
    const task: PoolTask = {
      kind: 'selfie',
      selfie: input.selfie,
      ...(input.frames
        ? { frames: input.frames.map((f) => ({ bytes: f.bytes, challenge: f.challenge, ...(f.step !== undefined ? { step: f.step } : {}) })) }
        : {}),
      ...(options.referenceEmbedding ? { referenceEmbedding: [...options.referenceEmbedding] } : {}),
      ...(options.referenceQuality ? { referenceQuality: { ...options.referenceQuality } } : {}),
      ...(options.referenceDocument ? { referenceDocument: options.referenceDocument } : {}),
      ...(options.requireReference !== undefined ? { requireReference: options.requireReference } : {}),
      ...(options.activeLiveness !== undefined ? { activeLiveness: options.activeLiveness } : {}),
      ...(options.flashColours ? { flashColours: [...options.flashColours] } : {}),
      ...(options.requireBlink !== undefined ? { requireBlink: options.requireBlink } : {}),
    };
    const r = await this.#pool.run(task);
    if (r.kind !== 'selfie') throw new Error('Unexpected pool result');
    return { ...r.result, derivative: toBuffer(r.result.derivative) };
  }

  /** {@link analyseFrames} in a worker thread. */
  async analyseFrames(input: AnalyseFramesInput): Promise<FramesResult> {
    const r = await this.#pool.run({ kind: 'frames', frames: [...input.frames] } satisfies PoolTask);
    if (r.kind !== 'frames') throw new Error('Unexpected pool result');
    return r.result;
  }

  /** Tasks waiting for a thread. */
  get queueSize(): number {
    return this.#pool.queueSize;
  }

  /** Finishes running tasks and stops the threads. */
  async close(): Promise<void> {
    await this.#pool.close();
  }
}
