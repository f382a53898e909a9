/**
 * Reading pixels out of a playing `<video>`: the small frames the per-frame checks analyse and the
 * full-resolution pictures that are uploaded. Shared by the document and selfie steps.
 */

/** Copies the video's current frame, at its full resolution, into a new canvas. */
export function snapshot(video: HTMLVideoElement): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0);
  return canvas;
}

/** The canvas as a JPEG, or null when the browser could not encode it. */
export function toJpeg(canvas: HTMLCanvasElement, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

/**
 * Scales frames down to a fixed width (keeping the aspect ratio) in one reused canvas, so a check
 * that runs on every frame neither allocates a canvas per frame nor reads 720p pixels.
 */
export class FrameSampler {
  #canvas: HTMLCanvasElement | undefined;

  constructor(readonly width: number) {}

  /** The current frame's pixels at `width` wide; call only once the video has a size. */
  pixels(video: HTMLVideoElement): ImageData {
    const width = this.width;
    const height = Math.max(1, Math.round((video.videoHeight / video.videoWidth) * width));
    const canvas = (this.#canvas ??= document.createElement('canvas'));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    // willReadFrequently keeps the canvas on the CPU, where getImageData is cheap.
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(video, 0, 0, width, height);
    return ctx.getImageData(0, 0, width, height);
  }
}
