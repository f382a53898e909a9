/**
 * Records a camera stream for a fixed time with MediaRecorder and samples JPEG frames from its
 * `<video>` as it goes: the server analyses the frames (it needs no video decoder) and keeps the
 * recording for the record. DOM only; no Lit.
 */
import { toJpeg } from '../../capture/video-frames.js';

/** Width the sampled frames are sent at: enough for the server's face mesh, light to upload. */
const FRAME_WIDTH = 640;

/** One frame sampled during the recording; `at` is `performance.now()` when it was drawn. */
export interface SampledFrame {
  readonly blob: Blob;
  readonly at: number;
}

export interface Recording {
  readonly video: Blob;
  readonly durationMs: number;
  readonly frames: readonly SampledFrame[];
}

/** The container the browser records in: WebM where it can (Chromium, Firefox), else MP4 (Safari). */
export function recordingType(): string | null {
  if (typeof MediaRecorder === 'undefined') return null;
  for (const type of ['video/webm;codecs=vp8', 'video/webm', 'video/mp4']) if (MediaRecorder.isTypeSupported(type)) return type;
  return null;
}

/**
 * Records `stream` for `durationMs`, drawing `frameCount` frames of `video` at even intervals
 * from the start. `onTick` gets the ms elapsed every frame interval (for the on-screen guide).
 */
export function record(
  stream: MediaStream,
  video: HTMLVideoElement,
  options: { durationMs: number; frameCount: number; mimeType: string; onTick(elapsedMs: number): void },
): Promise<Recording> {
  return new Promise((resolve, reject) => {
    const recorder = new MediaRecorder(stream, { mimeType: options.mimeType, videoBitsPerSecond: 1_000_000 });
    const chunks: Blob[] = [];
    const pending: Promise<SampledFrame | null>[] = [];
    const interval = options.durationMs / options.frameCount;
    let started = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const sample = (): void => {
      const at = performance.now();
      const canvas = document.createElement('canvas');
      const scale = Math.min(1, FRAME_WIDTH / (video.videoWidth || FRAME_WIDTH));
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      canvas.getContext('2d')!.drawImage(video, 0, 0, canvas.width, canvas.height);
      pending.push(toJpeg(canvas, 0.85).then((blob) => (blob ? { blob, at } : null)));
    };
    recorder.addEventListener('dataavailable', (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    });
    recorder.addEventListener('error', () => {
      clearInterval(timer);
      reject(new Error('recording failed'));
    });
    recorder.addEventListener('stop', () => {
      const durationMs = Math.round(performance.now() - started);
      void Promise.all(pending).then((frames) =>
        resolve({
          video: new Blob(chunks, { type: options.mimeType.split(';')[0] }),
          durationMs,
          frames: frames.filter((f): f is SampledFrame => f !== null),
        }),
      );
    });
    recorder.addEventListener('start', () => {
      started = performance.now();
      sample();
      timer = setInterval(() => {
        const elapsed = performance.now() - started;
        options.onTick(elapsed);
        if (pending.length < options.frameCount) sample();
        if (elapsed >= options.durationMs) {
          clearInterval(timer);
          recorder.stop();
        }
      }, interval);
    });
    recorder.start();
  });
}
