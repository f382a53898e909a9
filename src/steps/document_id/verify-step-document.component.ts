import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { DocumentSide, DocumentTypeOption, MethodViewOf } from '../../api/contract.js';
import { shapeOf } from '../../capture/document-shape.js';
import type { QualityReport } from '../../capture/quality.js';

export { issueHint };
import { checkUpload } from '../../capture/file-check.js';
import type { CameraController } from '../../controllers/camera-controller.js';
import { QualityCaptureController } from '../../controllers/quality-capture-controller.js';
import { VerifyError } from '../../events/events.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { documentTypeName } from './document-type-names.js';
import { issueHint, uploadProblemText } from './document-messages.js';
import { CaptureStepElement } from '../capture-step-element.js';
import styles from './verify-step-document.styles.js';
import { states } from '../../internal/lit-states.js';

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
export class VerifyStepDocument extends CaptureStepElement<MethodViewOf<'document_id'>> {
  static override styles = [sharedStyles, styles];
  static override properties = {
    ...CaptureStepElement.properties,
    ...states('phase', 'documentType', 'side', 'captures', 'busy', 'checking'),
  };

  /** Consecutive good frames before the picture is taken automatically. */
  static autoCaptureFrames = 5;

  declare protected phase: DocumentPhase;
  declare private documentType: DocumentTypeOption | null;
  declare private side: DocumentSide;
  declare private captures: Partial<Record<DocumentSide, SideCapture>>;
  declare private busy: boolean;
  /** A picked file is being opened on the device (a PDF's pages are read). */
  declare private checking: boolean;

  // The camera with the capture checks and auto-capture (shared with Secure Card).
  protected readonly capture = new QualityCaptureController(this, {
    goodFrames: VerifyStepDocument.autoCaptureFrames,
    // A passport's data page is framed and checked as a TD3 page, anything else as a card (issue 20).
    shape: () => shapeOf(this.documentType?.key),
    hint: issueHint,
    onAutoCapture: () => void this.takePicture('camera'),
  });

  constructor() {
    super({ openBrowser: true });
    this.phase = DOCUMENT_PHASE.chooseType;
    this.documentType = null;
    this.side = 'front';
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

  protected override showScreen(screen: 'camera' | 'upload'): void {
    this.phase = screen === 'camera' ? DOCUMENT_PHASE.camera : DOCUMENT_PHASE.upload;
  }

  /** Takes the picture from the live camera (auto-capture or the button). */
  override async takePicture(_trigger: 'camera' | 'manual' = 'manual'): Promise<void> {
    const quality = this.capture.lastReport;
    const blob = await this.takeJpeg(0.92);
    if (blob) this.setCapture({ blob, url: URL.createObjectURL(blob), mediaType: 'image/jpeg', source: 'camera', quality, uploadId: null });
  }

  private setCapture(capture: SideCapture): void {
    const previous = this.captures[this.side];
    if (previous) URL.revokeObjectURL(previous.url);
    this.captures = { ...this.captures, [this.side]: capture };
    this.phase = DOCUMENT_PHASE.review;
    void this.updateComplete.then(() => (this.renderRoot.querySelector('#review-title') as HTMLElement | null)?.focus());
  }

  /** Checks and takes a picked file. */
  override async pickFile(file: File): Promise<boolean> {
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

  /** Accepts the reviewed side: uploads it, then moves to the back side or the submit. */
  async acceptSide(): Promise<void> {
    const capture = this.captures[this.side];
    const type = this.documentType;
    if (!capture || !type || this.busy) return;
    this.busy = true;
    this.error = '';
    try {
      if (!capture.uploadId) {
        const quality = this.qualityField(capture.quality);
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

  protected override renderOwnScreen(): TemplateResult {
    return this.phase === DOCUMENT_PHASE.chooseType ? this.renderChooseType() : this.renderReview();
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

  protected override renderCamera(): TemplateResult {
    const sideText = this.sideLabel(this.side);
    const passport = shapeOf(this.documentType?.key).kind === 'passport_page';
    const prompt = passport
      ? msg('Open your passport at the page with your photo and fit that page in the frame, its bottom edge on the line.', { id: 'doc.show-passport' })
      : msg(str`Show the ${sideText} of your document to the camera.`, { id: 'doc.show-side' });
    return this.renderCameraScreen(prompt, `guide ${passport ? 'passport' : 'card'}`);
  }

  protected override renderUpload(): TemplateResult {
    const sideText = this.sideLabel(this.side);
    const label = msg(str`Choose a photo or scan of the ${sideText} (JPG, PNG or PDF, under 10 MB)`, { id: 'doc.upload.label' });
    return this.renderUploadScreen(label, 'image/jpeg,image/png,application/pdf', this.checking);
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
