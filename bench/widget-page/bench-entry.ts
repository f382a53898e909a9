/**
 * Browser side of bench/widget.ts: measures, in the page, the capture code exactly as the widget
 * runs it. Built by vite into .wtr-tmp/bench and driven by puppeteer.
 */
import { loadFaceDetector } from '../../src/capture/face-detector.js';
import { assessFrame, toLuma } from '../../src/capture/quality.js';

/** Results, in ms. */
export interface WidgetBenchResult {
  /** First camera start in this browser (device set-up included). */
  firstFrameColdMs: number;
  /** A later start, as when the user goes from one capture step to the next. */
  firstFrameMs: number;
  cameraWidth: number;
  cameraHeight: number;
  qualityMsPerFrame: number;
  baselineMsPerFrame: number;
  faceMsPerFrame: number;
  faceBaselineMsPerFrame: number;
  facesFound: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function firstFrame(): Promise<{ ms: number; video: HTMLVideoElement }> {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  document.body.append(video);
  const start = performance.now();
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false });
  video.srcObject = stream;
  await video.play();
  await new Promise<void>((resolve) => video.requestVideoFrameCallback(() => resolve()));
  return { ms: performance.now() - start, video };
}

async function run(faceImageUrl: string, assetBase: string): Promise<WidgetBenchResult> {
  const cold = await firstFrame();
  for (const track of (cold.video.srcObject as MediaStream).getTracks()) track.stop();
  cold.video.remove();
  const { ms, video } = await firstFrame();
  // Quality: the per-frame path of the document step (downsize to 480 px wide, then assess).
  const small = document.createElement('canvas');
  small.width = 480;
  small.height = Math.round((video.videoHeight / video.videoWidth) * 480);
  const ctx = small.getContext('2d', { willReadFrequently: true })!;
  const quality: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t0 = performance.now();
    ctx.drawImage(video, 0, 0, small.width, small.height);
    assessFrame(ctx.getImageData(0, 0, small.width, small.height));
    quality.push(performance.now() - t0);
    // Same-run baseline: the same draw and read, with only a luma pass.
    const t1 = performance.now();
    ctx.drawImage(video, 0, 0, small.width, small.height);
    toLuma(ctx.getImageData(0, 0, small.width, small.height));
    baseline.push(performance.now() - t1);
  }
  // Face detection on a 640x480 selfie-like frame cut from a real photo.
  const img = new Image();
  img.src = faceImageUrl;
  await img.decode();
  const frame = document.createElement('canvas');
  frame.width = 640;
  frame.height = 480;
  frame.getContext('2d')!.drawImage(img, 510, 190, 560, 420, 0, 0, 640, 480);
  const detector = await loadFaceDetector(assetBase, 'IMAGE');
  let facesFound = 0;
  for (let i = 0; i < 5; i++) facesFound = detector.detectImage(frame).length;
  const face: number[] = [];
  const faceBaseline: number[] = [];
  const fctx = frame.getContext('2d', { willReadFrequently: true })!;
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    detector.detectImage(frame);
    face.push(performance.now() - t0);
    const t1 = performance.now();
    toLuma(fctx.getImageData(0, 0, 640, 480));
    faceBaseline.push(performance.now() - t1);
  }
  detector.close();
  for (const track of (video.srcObject as MediaStream).getTracks()) track.stop();
  return {
    firstFrameColdMs: cold.ms,
    firstFrameMs: ms,
    cameraWidth: video.videoWidth,
    cameraHeight: video.videoHeight,
    qualityMsPerFrame: median(quality),
    baselineMsPerFrame: median(baseline),
    faceMsPerFrame: median(face),
    faceBaselineMsPerFrame: median(faceBaseline),
    facesFound,
  };
}

(window as unknown as { runWidgetBench: typeof run }).runWidgetBench = run;
