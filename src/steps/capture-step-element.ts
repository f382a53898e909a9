import { msg } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { MethodView } from '../api/contract.js';
import type { QualityReport } from '../capture/quality.js';
import { CAMERA_STATE } from '../controllers/camera-controller.js';
import type { QualityCaptureController } from '../controllers/quality-capture-controller.js';
import { CameraWayForwardController } from './camera-way-forward.js';
import { StepElement } from './step-element.js';

/**
 * Base of the steps that photograph a card-shaped thing with the rear camera and its quality
 * checks, or take a picked file instead (Document, Secure Card): opening the camera or the file
 * picker, taking the picture, the ways forward after a camera failure, and both screens.
 */
export abstract class CaptureStepElement<M extends MethodView> extends StepElement<M> {
  static override properties = { ...StepElement.properties, error: { state: true } };

  declare protected error: string;
  protected abstract readonly capture: QualityCaptureController;
  protected readonly ways: CameraWayForwardController;

  /** `openBrowser`: a failed camera in an in-app browser offers to copy the link for the real browser. */
  constructor(options: { openBrowser?: boolean } = {}) {
    super();
    this.error = '';
    this.ways = new CameraWayForwardController(this, {
      retry: () => void this.openCamera(),
      upload: () => this.openUpload(),
      handoffEnabled: () => this.context.handoffEnabled,
      handoff: () => this.requestHandoff(),
      handoffShown: (shown) => this.offersHandoff(shown),
      ...(options.openBrowser ? { openBrowser: true } : {}),
    });
  }

  /** The screen on show: `camera`, `upload` and `submitting` are drawn here, the step's others by {@link renderOwnScreen}. */
  protected abstract readonly phase: string;

  /** Shows the step's camera or file picker screen. */
  protected abstract showScreen(screen: 'camera' | 'upload'): void;

  /** The camera screen (through {@link renderCameraScreen}). */
  protected abstract renderCamera(): TemplateResult;

  /** The file picker screen (through {@link renderUploadScreen}). */
  protected abstract renderUpload(): TemplateResult;

  /** The step's own screens (choosing, review and the like). */
  protected abstract renderOwnScreen(): TemplateResult;

  protected override render(): TemplateResult {
    return this.screen(
      this.phase,
      {
        camera: () => this.renderCamera(),
        upload: () => this.renderUpload(),
        submitting: () => html`<p role="status">${msg('Sending…', { id: 'doc.sending' })}</p>`,
      },
      () => this.renderOwnScreen(),
    );
  }

  /** Takes the picture from the live camera (auto-capture or the button). */
  abstract takePicture(): Promise<void>;

  /** Checks and takes a picked file; false when refused. */
  abstract pickFile(file: File): Promise<boolean>;

  /** Opens the rear camera with the capture checks. */
  async openCamera(): Promise<void> {
    this.error = '';
    this.showScreen('camera');
    await this.updateComplete;
    if (!(await this.capture.open(this.renderRoot)) && this.capture.camera.error) this.report(this.capture.camera.error);
  }

  /** Shows the file picker screen. */
  openUpload(): void {
    this.capture.stop();
    this.error = '';
    this.showScreen('upload');
  }

  /** The live camera's picture as a JPEG; undefined when there is no frame yet, or when encoding failed (then says so). */
  protected async takeJpeg(quality: number): Promise<Blob | undefined> {
    const blob = await this.capture.takeJpeg(this.renderRoot, quality);
    if (blob === null) this.error = msg('The picture could not be taken. Try again.', { id: 'doc.capture-failed' });
    return blob ?? undefined;
  }

  /** The capture checks of `report` as the upload's `quality` field (JSON); undefined without a report. */
  protected qualityField(report: QualityReport | null): string | undefined {
    if (!report) return undefined;
    return JSON.stringify({
      blur_variance: report.blurVariance,
      glare_ratio: report.glareRatio,
      mean_luma: report.meanLuma,
      document_found: report.document.found,
      good_frames: this.capture.goodFrames,
    });
  }

  private async onFileChange(event: Event): Promise<void> {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) await this.pickFile(file);
  }

  /** The camera screen: `prompt`, the preview with its guide (`guide`: its classes), the advice and the buttons, or the ways forward when the camera failed. */
  protected renderCameraScreen(prompt: string, guide: string): TemplateResult {
    const camera = this.capture.camera;
    const failed = camera.state === CAMERA_STATE.failed && camera.error;
    return html`
      <p>${prompt}</p>
      <div class="viewport" ?hidden=${Boolean(failed)}>
        <video part="video" muted playsinline aria-label=${msg('Camera preview', { id: 'doc.preview' })}></video>
        <div class=${guide} aria-hidden="true"></div>
      </div>
      ${
        failed
          ? this.ways.failure(camera.error)
          : html`
              <p class="hint" role="status" aria-live="polite">
                ${camera.state === CAMERA_STATE.starting ? msg('Starting the camera…', { id: 'doc.starting' }) : this.capture.hint}
              </p>
              <div class="actions">
                <button type="button" ?disabled=${camera.state !== CAMERA_STATE.live} @click=${() => void this.takePicture()}>
                  ${msg('Take picture', { id: 'doc.take' })}
                </button>
                <button type="button" class="secondary" @click=${() => this.openUpload()}>${msg('Upload a file instead', { id: 'doc.upload-instead' })}</button>
              </div>
            `
      }
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
    `;
  }

  /** The file picker screen: `label`, the input taking `accept`, a note while `checking` the file, and the way back to the camera. */
  protected renderUploadScreen(label: string, accept: string, checking = false): TemplateResult {
    return html`
      <div class="field">
        <label for="file">${label}</label>
        <input id="file" type="file" accept=${accept} aria-describedby="upload-error" @change=${(e: Event) => void this.onFileChange(e)} />
        ${checking ? html`<p role="status">${msg('Checking the file…', { id: 'doc.upload.checking' })}</p>` : nothing}
        <p id="upload-error" class="error" role="alert">${this.error}</p>
      </div>
      <div class="actions">
        <button type="button" class="secondary" @click=${() => void this.openCamera()}>${msg('Use the camera instead', { id: 'doc.camera-instead' })}</button>
      </div>
    `;
  }
}
