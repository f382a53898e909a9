import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { DocumentShape } from '../capture/document-shape.js';
import { AutoCapture, assessFrame, type CaptureIssue, type QualityReport } from '../capture/quality.js';
import { FrameSampler, snapshot, toJpeg } from '../capture/video-frames.js';
import { CameraController, CAMERA_STATE } from './camera-controller.js';
import { FrameLoopController } from './frame-loop-controller.js';

/** Width of the frames the quality checks look at. */
const ANALYSIS_WIDTH = 480;

/** What the host supplies: the shape to frame, how to word an issue, and what to do when the picture is due. */
export interface QualityCaptureOptions {
  /** Consecutive good frames before the picture is taken automatically. */
  goodFrames: number;
  shape(): DocumentShape;
  hint(issue: CaptureIssue | null): string;
  /** Called once when the streak of good frames is reached. */
  onAutoCapture(): void;
}

/**
 * The rear camera with the document capture checks on every frame (light, glare, blur, the card
 * found and framed), advice when it changes and auto-capture after a streak of good frames: the
 * document step's capture, for any step that photographs a card-shaped thing (Secure Card).
 */
export class QualityCaptureController implements ReactiveController {
  readonly camera: CameraController;
  private readonly frames: FrameLoopController;
  private readonly sampler = new FrameSampler(ANALYSIS_WIDTH);
  private readonly auto: AutoCapture;
  private lastIssue: CaptureIssue | null | undefined = undefined;
  /** The advice for the last frame (changes only when the issue does, for screen readers). */
  hint = '';
  /** The report of the last analysed frame. */
  lastReport: QualityReport | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: QualityCaptureOptions,
  ) {
    host.addController(this);
    this.camera = new CameraController(host);
    this.frames = new FrameLoopController(host);
    this.auto = new AutoCapture(options.goodFrames);
  }

  hostConnected(): void {}

  /** Good frames in a row so far. */
  get goodFrames(): number {
    return this.auto.goodFrames;
  }

  /** Opens the rear camera in `video` and starts checking frames; false when the camera failed (see `camera.error`). */
  async start(video: HTMLVideoElement): Promise<boolean> {
    this.auto.reset();
    this.lastIssue = undefined;
    this.hint = '';
    if (!(await this.camera.start(video, 'environment'))) return false;
    this.frames.start(() => {
      if (this.camera.state !== CAMERA_STATE.live) return false;
      this.analyse(video);
      return true;
    });
    return true;
  }

  /** The current frame at full resolution; stops the camera. */
  take(video: HTMLVideoElement): HTMLCanvasElement | null {
    if (!video.videoWidth) return null;
    const canvas = snapshot(video);
    this.stop();
    return canvas;
  }

  /**
   * Opens the camera in the `<video>` the host rendered into `root`; false when there is no video
   * or the camera failed (then `camera.error` says why).
   */
  async open(root: ParentNode): Promise<boolean> {
    const video = root.querySelector('video');
    return video ? this.start(video) : false;
  }

  /**
   * The current frame of the `<video>` in `root` as a JPEG at `quality`, and the camera stopped:
   * undefined when there is no frame yet (nothing changes), null when encoding it failed.
   */
  async takeJpeg(root: ParentNode, quality: number): Promise<Blob | null | undefined> {
    const video = root.querySelector('video');
    const canvas = video ? this.take(video) : null;
    return canvas ? toJpeg(canvas, quality) : undefined;
  }

  stop(): void {
    this.frames.stop();
    this.camera.stop();
  }

  private analyse(video: HTMLVideoElement): void {
    if (!video.videoWidth) return;
    const report = assessFrame(this.sampler.pixels(video), undefined, this.options.shape());
    this.lastReport = report;
    const issue = report.issues[0] ?? null;
    if (issue !== this.lastIssue) {
      this.lastIssue = issue;
      this.hint = this.options.hint(issue);
      this.host.requestUpdate();
    }
    if (this.auto.push(report)) this.options.onAutoCapture();
  }
}
