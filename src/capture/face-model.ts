/**
 * The on-device face model as the page sees it (issue 20, point 6): it loads and runs in a module
 * worker (face-worker.ts), so loading it never freezes the page, and the flow starts loading it
 * as soon as it knows a face step is coming ({@link FaceModel.preload}), long before the camera
 * opens. Frames go to the worker as transferred `ImageBitmap`s (no copy). Where a module worker
 * cannot run (an old browser, a page whose CSP forbids it) the model loads on the page instead,
 * as it did before: slower to start, but the step still works.
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
  /** Settles once the model can detect (in the worker or, failing that, on the page). */
  readonly ready: Promise<void>;

  private constructor(readonly assetBase: string) {
    this.ready = this.#load();
    // Nobody may be waiting yet (a preload): a failure is reported to whoever calls detect().
    this.ready.catch(() => undefined);
  }

  /** Starts loading the model from `assetBase` (resolved against the page) and returns at once. */
  static preload(assetBase: string): FaceModel {
    return new FaceModel(new URL(assetBase, document.baseURI).href);
  }

  /** Where the model runs: `worker` unless a module worker could not start here. */
  get home(): FaceModelHome {
    return this.#home;
  }

  async #load(): Promise<void> {
    try {
      await this.#startWorker();
    } catch {
      this.#worker?.terminate();
      this.#worker = null;
      this.#home = 'page';
      const { loadFaceDetector } = await import('./face-detector.js');
      this.#page = await loadFaceDetector(this.assetBase, 'VIDEO');
    }
  }

  #startWorker(): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(new URL('./face-worker.ts', import.meta.url), { type: 'module', name: 'verity-face' });
      this.#worker = worker;
      worker.addEventListener('error', (event) => {
        event.preventDefault();
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
    if (this.#page) return this.#page.detectVideo(source, timestamp);
    const frame = await createImageBitmap(source);
    const worker = this.#worker;
    if (!worker) {
      frame.close();
      throw new Error('face model closed');
    }
    const id = this.#nextId++;
    return new Promise<DetectedFace[]>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ type: 'detect', id, frame, timestamp } satisfies FaceWorkerRequest, [frame]);
    });
  }

  /** Stops the worker (or frees the page's detector); pending detections fail. */
  close(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#page?.close();
    this.#page = null;
    this.#failAll(new Error('face model closed'));
  }
}
