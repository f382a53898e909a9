/**
 * The on-device face model as the page sees it (issue 20, point 6): it loads and runs in a module
 * worker (face-worker.ts), so loading it never freezes the page, and the flow starts loading it
 * as soon as it knows a face step is coming ({@link FaceModel.preload}), long before the camera
 * opens. Frames go to the worker as transferred `ImageBitmap`s (no copy). Where a module worker
 * cannot run (an old browser, a page whose CSP forbids it) the model loads on the page instead,
 * as it did before: slower to start, but the step still works. So it does when the worker stops
 * answering: a load or a detection past its deadline moves the model to the page, so the step
 * never waits forever on a worker that hung.
 */
import type { DetectedFace, FaceDetection } from './face-detector.js';
import type { FaceWorkerReply, FaceWorkerRequest } from './face-worker-protocol.js';

/** Where the model ended up running. */
export type FaceModelHome = 'worker' | 'page';

/**
 * A module worker for `url`. A worker must come from the page's own origin; when the widget is
 * embedded on a customer's page its scripts come from Verity's origin, so a tiny same-origin
 * `blob:` module imports the real one (served with CORS under `/web/`).
 */
function moduleWorker(url: URL, options: WorkerOptions): globalThis.Worker {
  if (url.origin === location.origin) return new globalThis.Worker(url, options);
  const shim = URL.createObjectURL(new Blob([`import ${JSON.stringify(url.href)};`], { type: 'text/javascript' }));
  try {
    return new globalThis.Worker(shim, options);
  } finally {
    // The worker has fetched its script once started; the URL is not needed after construction.
    setTimeout(() => URL.revokeObjectURL(shim), 10_000);
  }
}

/**
 * Stands in for `Worker` so the bundler still sees the `new Worker(new URL('./x.ts', import.meta.url))`
 * form it compiles and rewrites (vite), while {@link moduleWorker} picks how to start it.
 */
const Worker = function (url: URL, options: WorkerOptions) {
  return moduleWorker(url, options);
} as unknown as typeof globalThis.Worker;

/** How long the worker may take to load the model, and to answer one detection, before the page takes over. */
export interface FaceModelDeadlines {
  readonly loadMs: number;
  readonly detectMs: number;
}

/** A worker loads the model in a few seconds and answers a frame in well under one; these are for a worker that hung. */
export const FACE_MODEL_DEADLINES: FaceModelDeadlines = { loadMs: 45_000, detectMs: 10_000 };

/** Settles as `promise` does, or fails once `ms` have passed. */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

interface Pending {
  resolve(faces: DetectedFace[]): void;
  reject(error: Error): void;
}

/** The face model, loading or loaded. Create with {@link FaceModel.preload}; `close()` it when the flow ends. */
export class FaceModel {
  #worker: globalThis.Worker | null = null;
  #page: FaceDetection | null = null;
  #nextId = 1;
  #lastTimestamp = 0;
  readonly #pending = new Map<number, Pending>();
  #home: FaceModelHome = 'worker';
  #pageLoading: Promise<void> | null = null;
  #closed = false;
  #workerDied = false;
  /** Settles once the model can detect (in the worker or, failing that, on the page). */
  readonly ready: Promise<void>;

  private constructor(
    readonly assetBase: string,
    private readonly deadlines: FaceModelDeadlines,
  ) {
    this.ready = this.#load();
    // Nobody may be waiting yet (a preload): a failure is reported to whoever calls detect().
    this.ready.catch(() => undefined);
  }

  /** Starts loading the model from `assetBase` (resolved against the page) and returns at once. */
  static preload(assetBase: string, deadlines: FaceModelDeadlines = FACE_MODEL_DEADLINES): FaceModel {
    return new FaceModel(new URL(assetBase, document.baseURI).href, deadlines);
  }

  /** Where the model runs: `worker` unless a module worker could not start here. */
  get home(): FaceModelHome {
    return this.#home;
  }

  async #load(): Promise<void> {
    try {
      await withDeadline(this.#startWorker(), this.deadlines.loadMs, 'loading the face model in a worker');
    } catch {
      await this.#moveToPage();
    }
  }

  /** Ends the worker (failed, or stopped answering) and loads the model on the page instead, once. */
  #moveToPage(): Promise<void> {
    this.#pageLoading ??= (async () => {
      this.#worker?.terminate();
      this.#worker = null;
      this.#failAll(new Error('face worker replaced by the page'));
      this.#home = 'page';
      const { loadFaceDetector } = await import('./face-detector.js');
      const page = await loadFaceDetector(this.assetBase, 'VIDEO');
      if (this.#closed) page.close();
      else this.#page = page;
    })();
    return this.#pageLoading;
  }

  #startWorker(): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(new URL('./face-worker.ts', import.meta.url), { type: 'module', name: 'verity-face' });
      this.#worker = worker;
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        this.#workerDied = true;
        const error = new Error(`face worker failed: ${event.message}`);
        reject(error);
        this.#failAll(error);
      });
      worker.addEventListener('message', (event: MessageEvent<FaceWorkerReply>) => {
        const message = event.data;
        if (message.type === 'ready') return resolve();
        if (message.type === 'failed' && message.id === undefined) return reject(new Error(message.message));
        const pending = this.#pending.get(message.id!);
        this.#pending.delete(message.id!);
        if (message.type === 'faces') pending?.resolve(message.faces);
        else pending?.reject(new Error(message.message));
      });
      worker.postMessage({ type: 'load', assetBase: this.assetBase } satisfies FaceWorkerRequest);
    });
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  /**
   * Faces in the current picture of `source` (a playing video or a canvas). Timestamps must
   * increase for the detector's video mode; they are made to.
   */
  async detect(source: HTMLVideoElement | HTMLCanvasElement, now = performance.now()): Promise<DetectedFace[]> {
    await this.ready;
    const timestamp = Math.max(now, this.#lastTimestamp + 1);
    this.#lastTimestamp = timestamp;
    if (this.#pageLoading) await this.#pageLoading;
    if (this.#closed) throw new Error('face model closed');
    if (this.#page) return this.#page.detectVideo(source, timestamp);
    const frame = await createImageBitmap(source);
    const worker = this.#worker;
    if (!worker) {
      frame.close();
      throw new Error('face model closed');
    }
    const id = this.#nextId++;
    const answer = new Promise<DetectedFace[]>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ type: 'detect', id, frame, timestamp } satisfies FaceWorkerRequest, [frame]);
    });
    try {
      return await withDeadline(answer, this.deadlines.detectMs, 'a detection in the face worker');
    } catch (error) {
      const unanswered = this.#pending.delete(id);
      // A frame the worker itself could not read fails alone; a worker that hung or died gives way to the page.
      if (this.#closed || !(unanswered || this.#workerDied)) throw error;
      await this.#moveToPage();
      const page = this.#pageDetector();
      if (!page) throw new Error('face model closed', { cause: error });
      return page.detectVideo(source, timestamp);
    }
  }

  /** Read through a method: TypeScript would keep the narrowing of `#page` from before an await. */
  #pageDetector(): FaceDetection | null {
    return this.#page;
  }

  /** Stops the worker (or frees the page's detector); pending detections fail. */
  close(): void {
    this.#closed = true;
    this.#worker?.terminate();
    this.#worker = null;
    this.#page?.close();
    this.#page = null;
    this.#failAll(new Error('face model closed'));
  }
}
