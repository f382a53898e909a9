import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { DocumentSide, DocumentTypeOption, MethodViewOf } from '../../api/contract.js';
import { shapeOf } from '../../capture/document-shape.js';
import type { QualityReport } from '../../capture/quality.js';

export { issueHint };
import { checkUpload } from '../../capture/file-check.js';
import { type CameraController, CAMERA_STATE } from '../../controllers/camera-controller.js';
import { QualityCaptureController } from '../../controllers/quality-capture-controller.js';
import { VerifyError } from '../../events/events.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { documentTypeName } from './document-type-names.js';
import { issueHint, uploadProblemText } from './document-messages.js';
import { CameraWayForwardController } from '../camera-way-forward.js';
import { StepElement } from '../step-element.js';
import styles from './verify-step-document.styles.js';

/** Screens of the document step. */
export const DOCUMENT_PHASE = {
  chooseType: 'choose-type',
  camera: 'camera',
  upload: 'upload',
  review: 'review',
  submitting: 'submitting',
} as const;
/** One of {@link DOCUMENT_PHASE}. */
export type DocumentPhase = (typeof DOCUMENT_PHASE)[keyof typeof DOCUMENT_PHASE];

/** One side taken or picked, waiting for review or already uploaded. */
interface SideCapture {
  blob: Blob;
  url: string;
  mediaType: string;
  source: 'camera' | 'upload';
  quality: QualityReport | null;
  uploadId: string | null;
}

/**
 * Document / ID capture: rear camera with a frame overlay and on-device quality checks on every
 * frame, auto-capture after several good frames in a row, manual capture, front and back, file
 * upload instead, and a review before submitting.
 *
 * @csspart video - The camera preview.
 */
export class VerifyStepDocument extends StepElement<MethodViewOf<'document_id'>> {
  static override styles = [sharedStyles, styles];
  static override properties = {
    ...StepElement.properties,
    phase: { state: true },
    documentType: { state: true },
    side: { state: true },
    error: { state: true },
    captures: { state: true },
    busy: { state: true },
    checking: { state: true },
  };

  /** Consecutive good frames before the picture is taken automatically. */
  static autoCaptureFrames = 5;

  declare private phase: DocumentPhase;
  declare private documentType: DocumentTypeOption | null;
  declare private side: DocumentSide;
  declare private error: string;
  declare private captures: Partial<Record<DocumentSide, SideCapture>>;
  declare private busy: boolean;
  /** A picked file is being opened on the device (a PDF's pages are read). */
  declare private checking: boolean;

  // The camera with the capture checks and auto-capture (shared with Secure Card).
  private readonly capture = new QualityCaptureController(this, {
    goodFrames: VerifyStepDocument.autoCaptureFrames,
    // A passport's data page is framed and checked as a TD3 page, anything else as a card (issue 20).
    shape: () => shapeOf(this.documentType?.key),
    hint: issueHint,
    onAutoCapture: () => void this.takePicture('camera'),
  });
  private readonly ways = new CameraWayForwardController(this, {
    retry: () => void this.openCamera(),
    upload: () => this.openUpload(),
    handoffEnabled: () => this.context.handoffEnabled,
    handoff: () => this.requestHandoff(),
    openBrowser: true,
  });

  constructor() {
    super();
    this.phase = DOCUMENT_PHASE.chooseType;
    this.documentType = null;
    this.side = 'front';
    this.error = '';
    this.captures = {};
    this.busy = false;
    this.checking = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const types = this.method?.needs.document_types ?? [];
    const saved = this.flow.value?.choices.document_type;
    this.documentType = types.length === 1 ? types[0]! : (types.find((t) => t.key === saved) ?? null);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.capture.stop();
    for (const capture of Object.values(this.captures)) if (capture) URL.revokeObjectURL(capture.url);
  }

  /** The report of the last analysed camera frame (for tests and diagnostics). */
  get lastQuality(): QualityReport | null {
    return this.capture.lastReport;
  }

  /** The camera controller (start-up time, state). */
  get cameraState(): CameraController {
    return this.capture.camera;
  }

  private chooseType(key: string): void {
    this.documentType = this.method.needs.document_types.find((t) => t.key === key) ?? null;
    if (this.documentType) this.flow.value?.saveChoice('document_type', this.documentType.key);
  }

  /** Opens the camera for the current side. */
  async openCamera(): Promise<void> {
    this.error = '';
    this.phase = DOCUMENT_PHASE.camera;
    await this.updateComplete;
    if (!(await this.capture.open(this.renderRoot)) && this.capture.camera.error) this.report(this.capture.camera.error);
  }

  /** Shows the file picker screen. */
  openUpload(): void {
    this.capture.stop();
    this.error = '';
    this.phase = DOCUMENT_PHASE.upload;
  }

  /** Takes the picture from the live camera (auto-capture or the button). */
  async takePicture(_trigger: 'camera' | 'manual' = 'manual'): Promise<void> {
    const quality = this.capture.lastReport;
    const blob = await this.capture.takeJpeg(this.renderRoot, 0.92);
    if (blob === undefined) return;
    if (!blob) {
      this.error = msg('The picture could not be taken. Try again.', { id: 'doc.capture-failed' });
      return;
    }
    this.setCapture({ blob, url: URL.createObjectURL(blob), mediaType: 'image/jpeg', source: 'camera', quality, uploadId: null });
  }

  private setCapture(capture: SideCapture): void {
    const previous = this.captures[this.side];
    if (previous) URL.revokeObjectURL(previous.url);
    this.captures = { ...this.captures, [this.side]: capture };
    this.phase = DOCUMENT_PHASE.review;
    void this.updateComplete.then(() => (this.renderRoot.querySelector('#review-title') as HTMLElement | null)?.focus());
  }

  /** Checks and takes a picked file. */
  async pickFile(file: File): Promise<boolean> {
    this.checking = true;
    this.error = '';
    const check = await checkUpload(file).finally(() => (this.checking = false));
    if (!check.ok) {
      this.error = uploadProblemText(check.problem);
      this.report(new VerifyError('upload_invalid', `upload ${check.problem}`, 'warning', true));
      return false;
    }
    this.error = '';
    this.setCapture({ blob: file, url: URL.createObjectURL(file), mediaType: check.mediaType, source: 'upload', quality: null, uploadId: null });
    return true;
  }

  private async onFileChange(event: Event): Promise<void> {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (file) await this.pickFile(file);
    input.value = '';
  }

  /** Accepts the reviewed side: uploads it, then moves to the back side or the submit. */
  async acceptSide(): Promise<void> {
    const capture = this.captures[this.side];
    const type = this.documentType;
    if (!capture || !type || this.busy) return;
    this.busy = true;
    this.error = '';
    try {
      if (!capture.uploadId) {
        const quality = capture.quality
          ? JSON.stringify({
              blur_variance: capture.quality.blurVariance,
              glare_ratio: capture.quality.glareRatio,
              mean_luma: capture.quality.meanLuma,
              document_found: capture.quality.document.found,
              good_frames: this.capture.goodFrames,
            })
          : undefined;
        const extension = capture.mediaType === 'application/pdf' ? 'pdf' : capture.mediaType === 'image/png' ? 'png' : 'jpg';
        const uploaded = await this.client.uploadDocument(
          { document_type: type.key, side: this.side, source: capture.source, ...(quality ? { quality } : {}) },
          capture.blob,
          `${this.side}.${extension}`,
        );
        this.captures = { ...this.captures, [this.side]: { ...capture, uploadId: uploaded.upload_id } };
      }
      if (type.sides === 2 && this.side === 'front') {
        this.side = 'back';
        this.busy = false;
        if (capture.source === 'upload') this.openUpload();
        else await this.openCamera();
        return;
      }
      await this.submit();
    } catch (error: unknown) {
      this.error = this.report(error).message;
    } finally {
      this.busy = false;
    }
  }

  private async submit(): Promise<void> {
    const type = this.documentType!;
    const front = this.captures.front?.uploadId;
    const back = this.captures.back?.uploadId;
    if (!front) return;
    this.phase = DOCUMENT_PHASE.submitting;
    try {
      this.complete(await this.client.submitDocument({ document_type: type.key, front_upload_id: front, ...(back ? { back_upload_id: back } : {}) }));
    } catch (error: unknown) {
      this.phase = DOCUMENT_PHASE.review;
      this.error = this.report(error).message;
    }
  }

  private retake(): void {
    if (this.captures[this.side]?.source === 'upload') this.openUpload();
    else void this.openCamera();
  }

  private sideLabel(side: DocumentSide): string {
    return side === 'front' ? msg('front', { id: 'doc.side.front' }) : msg('back', { id: 'doc.side.back' });
  }

  protected override render() {
    switch (this.phase) {
      case DOCUMENT_PHASE.chooseType:
        return this.renderChooseType();
      case DOCUMENT_PHASE.camera:
        return this.renderCamera();
      case DOCUMENT_PHASE.upload:
        return this.renderUpload();
      case DOCUMENT_PHASE.review:
        return this.renderReview();
      case DOCUMENT_PHASE.submitting:
        return html`<p role="status">${msg('Sending…', { id: 'doc.sending' })}</p>`;
    }
  }

  private renderChooseType(): TemplateResult {
    const types = this.method.needs.document_types;
    return html`
      <fieldset class="types">
        <legend>${msg('Which document will you use?', { id: 'doc.choose' })}</legend>
        ${types.map(
          (t) =>
            html`<label class="choice">
              <input type="radio" name="document_type" value=${t.key} .checked=${this.documentType?.key === t.key} @change=${() => this.chooseType(t.key)} />
              ${documentTypeName(t)}
            </label>`,
        )}
      </fieldset>
      ${this.documentType ? nothing : html`<p id="choose-first" class="muted">${msg('Choose your document type first.', { id: 'doc.choose-first' })}</p>`}
      <div class="actions">
        <button
          type="button"
          ?disabled=${!this.documentType}
          aria-describedby=${this.documentType ? nothing : 'choose-first'}
          @click=${() => void this.openCamera()}
        >
          ${msg('Use the camera', { id: 'doc.use-camera' })}
        </button>
        <button
          type="button"
          class="secondary"
          ?disabled=${!this.documentType}
          aria-describedby=${this.documentType ? nothing : 'choose-first'}
          @click=${() => this.openUpload()}
        >
          ${msg('Upload a file', { id: 'doc.upload' })}
        </button>
      </div>
    `;
  }

  private renderCamera(): TemplateResult {
    const camera = this.capture.camera;
    const failed = camera.state === CAMERA_STATE.failed && camera.error;
    const sideText = this.sideLabel(this.side);
    const passport = shapeOf(this.documentType?.key).kind === 'passport_page';
    return html`
      <p>
        ${
          passport
            ? msg('Open your passport at the page with your photo and fit that page in the frame, its bottom edge on the line.', { id: 'doc.show-passport' })
            : msg(str`Show the ${sideText} of your document to the camera.`, { id: 'doc.show-side' })
        }
      </p>
      <div class="viewport" ?hidden=${Boolean(failed)}>
        <video part="video" muted playsinline aria-label=${msg('Camera preview', { id: 'doc.preview' })}></video>
        <div class="guide ${passport ? 'passport' : 'card'}" aria-hidden="true"></div>
      </div>
      ${
        failed
          ? this.ways.failure(camera.error)
          : html`
              <p class="hint" role="status" aria-live="polite">
                ${camera.state === CAMERA_STATE.starting ? msg('Starting the camera…', { id: 'doc.starting' }) : this.capture.hint}
              </p>
              <div class="actions">
                <button type="button" ?disabled=${camera.state !== CAMERA_STATE.live} @click=${() => void this.takePicture('manual')}>
                  ${msg('Take picture', { id: 'doc.take' })}
                </button>
                <button type="button" class="secondary" @click=${() => this.openUpload()}>${msg('Upload a file instead', { id: 'doc.upload-instead' })}</button>
              </div>
            `
      }
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
    `;
  }

  private renderUpload(): TemplateResult {
    const sideText = this.sideLabel(this.side);
    return html`
      <div class="field">
        <label for="file">${msg(str`Choose a photo or scan of the ${sideText} (JPG, PNG or PDF, under 10 MB)`, { id: 'doc.upload.label' })}</label>
        <input
          id="file"
          type="file"
          accept="image/jpeg,image/png,application/pdf"
          aria-describedby="upload-error"
          @change=${(e: Event) => void this.onFileChange(e)}
        />
        ${this.checking ? html`<p role="status">${msg('Checking the file…', { id: 'doc.upload.checking' })}</p>` : nothing}
        <p id="upload-error" class="error" role="alert">${this.error}</p>
      </div>
      <div class="actions">
        <button type="button" class="secondary" @click=${() => void this.openCamera()}>${msg('Use the camera instead', { id: 'doc.camera-instead' })}</button>
      </div>
    `;
  }

  private renderReview(): TemplateResult {
    const capture = this.captures[this.side];
    const sideText = this.sideLabel(this.side);
    const isPdf = capture?.mediaType === 'application/pdf';
    return html`
      <h3 id="review-title" tabindex="-1">${msg(str`Check the ${sideText} of your document`, { id: 'doc.review.title' })}</h3>
      <p>${msg('Make sure all text is readable, with no glare or blur, and all four corners show.', { id: 'doc.review.body' })}</p>
      ${
        capture
          ? isPdf
            ? html`<p class="notice">${msg('PDF file selected.', { id: 'doc.review.pdf' })}</p>`
            : html`<img class="review" src=${capture.url} alt=${msg(str`Your picture of the ${sideText}`, { id: 'doc.review.alt' })} />`
          : nothing
      }
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="actions">
        <button type="button" ?disabled=${this.busy} aria-busy=${this.busy ? 'true' : 'false'} @click=${() => void this.acceptSide()}>
          ${this.documentType?.sides === 2 && this.side === 'front' ? msg('Use this and continue', { id: 'doc.review.next' }) : msg('Use this and submit', { id: 'doc.review.submit' })}
        </button>
        <button type="button" class="secondary" ?disabled=${this.busy} @click=${() => this.retake()}>${msg('Retake', { id: 'doc.review.retake' })}</button>
      </div>
    `;
  }
}
