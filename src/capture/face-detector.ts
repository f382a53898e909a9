/**
 * On-device face detection with `@mediapipe/tasks-vision`'s FaceDetector, fully offline: the
 * wasm files and the metadata-patched short-range BlazeFace model are served by our own server
 * under `{assetBase}mediapipe/wasm/` and `{assetBase}models/face_detection_short_range.tflite`
 * (built by `scripts/build-face-model.ts`). The library is imported lazily so it never weighs on
 * the flow's initial load.
 */
import type { FaceDetector } from '@mediapipe/tasks-vision';

import type { DetectedFace } from './detected-face.js';

export type { DetectedFace } from './detected-face.js';

/** Anything the detector can read a frame from. */
export type FrameSource = HTMLVideoElement | HTMLCanvasElement | HTMLImageElement | ImageBitmap | OffscreenCanvas;

/**
 * Stops the usage logger inside @mediapipe/tasks-vision 1.1 from posting to Google's logging
 * endpoint (it does so every minute and on close, with no option to turn it off). Nothing may
 * leave the user's device but what they send to us. The logger is found by its shape (a `flush`
 * method and a queue), since the bundle's property names are minified; once its `error` is set,
 * its `flush()` drops everything. Returns how many loggers were silenced.
 */
export function silenceTelemetry(task: object): number {
  let silenced = 0;
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 3) return;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (typeof record.flush === 'function' && Array.isArray(record.i) && 'h' in record) {
      record.error = new Error('telemetry disabled by Verity');
      record.i = [];
      if (record.h !== undefined) clearInterval(record.h as ReturnType<typeof setInterval>);
      record.h = undefined;
      silenced++;
      return;
    }
    for (const key of Object.keys(record)) visit(record[key], depth + 1);
  };
  visit(task, 0);
  return silenced;
}

/** The relative URLs of the assets under the asset base. */
export const FACE_ASSETS = {
  wasmDir: 'mediapipe/wasm',
  model: 'models/face_detection_short_range.tflite',
} as const;

/** A loaded detector. Create with {@link loadFaceDetector}; `close()` it when done. */
export class FaceDetection {
  private lastTimestamp = 0;

  constructor(private readonly detector: FaceDetector) {}

  /** Faces in one still image or canvas. */
  detectImage(source: FrameSource): DetectedFace[] {
    return toFaces(this.detector.detect(source as HTMLCanvasElement), sizeOf(source));
  }

  /** Faces in the current frame of a video, or a frame taken from one (timestamps must increase; handled here). */
  detectVideo(frame: HTMLVideoElement | HTMLCanvasElement | ImageBitmap | OffscreenCanvas, now = performance.now()): DetectedFace[] {
    const timestamp = Math.max(now, this.lastTimestamp + 1);
    this.lastTimestamp = timestamp;
    return toFaces(this.detector.detectForVideo(frame as HTMLVideoElement, timestamp), sizeOf(frame));
  }

  /** Releases the wasm graph. */
  close(): void {
    this.detector.close();
  }
}

/** The pixel size of a frame, read by shape: the DOM classes do not exist in a worker. */
function sizeOf(source: FrameSource): { width: number; height: number } {
  if ('videoWidth' in source) return { width: source.videoWidth, height: source.videoHeight };
  if ('naturalWidth' in source) return { width: source.naturalWidth, height: source.naturalHeight };
  return { width: source.width, height: source.height };
}

function toFaces(
  result: {
    detections: Array<{
      boundingBox?: { originX: number; originY: number; width: number; height: number };
      keypoints: Array<{ x: number; y: number }>;
      categories: Array<{ score: number }>;
    }>;
  },
  size: { width: number; height: number },
): DetectedFace[] {
  const faces: DetectedFace[] = [];
  for (const detection of result.detections) {
    const box = detection.boundingBox;
    if (!box || size.width === 0 || size.height === 0) continue;
    faces.push({
      box: { x: box.originX / size.width, y: box.originY / size.height, width: box.width / size.width, height: box.height / size.height },
      keypoints: detection.keypoints.map((k) => ({ x: k.x, y: k.y })),
      score: detection.categories[0]?.score ?? 0,
      aspect: size.width / size.height,
    });
  }
  return faces;
}

/**
 * Loads the FaceDetector from `assetBase` (a URL ending in `/`, e.g. `https://verity.example/web/vendor/`).
 * `runningMode` `VIDEO` for camera frames, `IMAGE` for stills. Works on the page and in a module
 * worker (face-worker.ts): there tasks-vision cannot `importScripts` its wasm loader, so it takes
 * the ES-module build of the loader (`useModule`), which it `import()`s.
 */
export async function loadFaceDetector(assetBase: string, runningMode: 'VIDEO' | 'IMAGE' = 'VIDEO'): Promise<FaceDetection> {
  const inWorker = typeof document === 'undefined';
  const base = new URL(assetBase, inWorker ? self.location.href : document.baseURI);
  const vision = await import('@mediapipe/tasks-vision');
  const fileset = await vision.FilesetResolver.forVisionTasks(new URL(FACE_ASSETS.wasmDir, base).href, inWorker);
  const detector = await vision.FaceDetector.createFromOptions(fileset, {
    baseOptions: { modelAssetPath: new URL(FACE_ASSETS.model, base).href, delegate: 'CPU' },
    runningMode,
    minDetectionConfidence: 0.5,
  });
  if (silenceTelemetry(detector) === 0) {
    // A tasks-vision update changed the logger's shape: refuse to run rather than phone home.
    detector.close();
    throw new Error('Could not disable the face detector library usage logging.');
  }
  return new FaceDetection(detector);
}
