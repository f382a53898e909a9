import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { CardBrand, MethodResult, MethodViewOf } from '../../api/contract.js';
import { CardReader, ocrAssets, type CardScan, type OcrAssets } from '../../capture/card-reader.js';
import { ID1_CARD } from '../../capture/document-shape.js';
import { checkUpload } from '../../capture/file-check.js';
import { QualityCaptureController } from '../../controllers/quality-capture-controller.js';
import { VerifyError } from '../../events/events.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { issueHint, uploadProblemText } from '../document_id/document-messages.js';
import { CaptureStepElement } from '../capture-step-element.js';
import { cardRejectionText } from './card-messages.js';
import styles from './verify-step-secure-card.styles.js';
import { states } from '../../internal/lit-states.js';

/** Screens of the Secure Card step. */
export const CARD_PHASE = {
  intro: 'intro',
  camera: 'camera',
  upload: 'upload',
  reading: 'reading',
  review: 'review',
  unreadable: 'unreadable',
  submitting: 'submitting',
  rejected: 'rejected',
} as const;
/** One of {@link CARD_PHASE}. */
export type CardPhase = (typeof CARD_PHASE)[keyof typeof CARD_PHASE];

const BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
  unknown: '—',
};

/**
 * Secure Card: the front of a payment card, photographed with the document step's capture checks
 * (or picked as a file). The number is read on this device (tesseract.js in a worker), checked
 * with Luhn and blacked out on the picture; only the masked picture and the reading without the
 * number (last four digits, brand, length, expiry, name, the Luhn result) are sent.
 *
 * @csspart video - The camera preview.
 */
export class VerifyStepSecureCard extends CaptureStepElement<MethodViewOf<'secure_card'>> {
  static override styles = [sharedStyles, styles];
  static override properties = {
    ...CaptureStepElement.properties,
    ...states('phase', 'scan', 'reason'),
  };

  /** Consecutive good frames before the picture is taken automatically. */
  static autoCaptureFrames = 5;
  /** Where the OCR comes from; null: under the flow's asset base (`…/web/vendor/tesseract/`). */
  static ocrAssets: OcrAssets | null = null;

  declare protected phase: CardPhase;
  declare private scan: (CardScan & { url: string | null; source: 'camera' | 'upload' }) | null;
  declare private reason: string | null;
  private reader: Promise<CardReader> | null = null;
  protected readonly capture = new QualityCaptureController(this, {
    goodFrames: VerifyStepSecureCard.autoCaptureFrames,
    shape: () => ID1_CARD,
    hint: issueHint,
    onAutoCapture: () => void this.takePicture(),
  });

  constructor() {
    super();
    this.phase = CARD_PHASE.intro;
    this.scan = null;
    this.reason = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The model is some megabytes: start loading it while the user reads the intro (inside a flow).
    if (this.flow.value) void this.loadReader().catch(() => undefined);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.capture.stop();
    this.forgetScan();
    const reader = this.reader;
    this.reader = null;
    void reader?.then((r) => r.close()).catch(() => undefined);
  }

  /** The current screen (for tests). */
  get currentPhase(): CardPhase {
    return this.phase;
  }

  private loadReader(): Promise<CardReader> {
    if (!this.reader) {
      const assets = VerifyStepSecureCard.ocrAssets ?? ocrAssets(this.context.assetBase);
      this.reader = CardReader.load(assets);
      this.reader.catch(() => (this.reader = null));
    }
    return this.reader;
  }

  private forgetScan(): void {
    if (this.scan?.url) URL.revokeObjectURL(this.scan.url);
    this.scan = null;
  }

  protected override showScreen(screen: 'camera' | 'upload'): void {
    this.phase = screen === 'camera' ? CARD_PHASE.camera : CARD_PHASE.upload;
  }

  /** Takes the picture from the live camera (auto-capture or the button) and reads it. */
  override async takePicture(): Promise<void> {
    const blob = await this.takeJpeg(0.95);
    if (blob) await this.readCard(blob, 'camera');
  }

  /** Checks a picked file by its content and reads it; false when refused. */
  override async pickFile(file: File): Promise<boolean> {
    this.error = '';
    const check = await checkUpload(file);
    const problem = !check.ok ? check.problem : check.mediaType === 'application/pdf' ? 'wrong_type' : null;
    if (problem) {
      this.error = problem === 'wrong_type' ? msg('Choose a JPG or PNG picture of the card.', { id: 'card.upload.wrong-type' }) : uploadProblemText(problem);
      this.report(new VerifyError('upload_invalid', `upload ${problem}`, 'warning', true));
      return false;
    }
    await this.readCard(file, 'upload');
    return true;
  }

  /** Reads the card on this device; the picture taken is dropped, only its masked copy is kept. */
  private async readCard(picture: Blob, source: 'camera' | 'upload'): Promise<void> {
    this.forgetScan();
    this.phase = CARD_PHASE.reading;
    try {
      const scan = await (await this.loadReader()).read(picture);
      this.scan = { ...scan, url: scan.masked ? URL.createObjectURL(scan.masked) : null, source };
      this.phase = scan.masked ? CARD_PHASE.review : CARD_PHASE.unreadable;
    } catch (error: unknown) {
      this.phase = source === 'upload' ? CARD_PHASE.upload : CARD_PHASE.intro;
      this.error = msg('The card could not be read on this device. Try again.', { id: 'card.read-failed' });
      this.report(new VerifyError('internal', error instanceof Error ? error.message : String(error), 'warning', true));
      return;
    }
    await this.updateComplete;
    (this.renderRoot.querySelector('h3') as HTMLElement | null)?.focus();
  }

  /** Sends the reading and the masked picture (or, for an unreadable card, the reading alone). */
  async send(): Promise<void> {
    const scan = this.scan;
    if (!scan || this.phase === CARD_PHASE.submitting) return;
    const back = this.phase;
    this.phase = CARD_PHASE.submitting;
    this.error = '';
    const quality = scan.source === 'camera' ? this.qualityField(this.capture.lastReport) : undefined;
    try {
      const result = await this.client.submitSecureCard(
        { reading: JSON.stringify(scan.reading), source: scan.source, ...(quality ? { quality } : {}) },
        scan.masked,
      );
      this.onResult(result);
    } catch (error: unknown) {
      this.phase = back;
      this.error = this.report(error).message;
    }
  }

  private onResult(result: MethodResult): void {
    if (result.method.status === 'rejected' && result.method.can_retry) {
      // Stay on the step: say why, and let the user take another picture.
      this.reason = result.method.reason;
      this.forgetScan();
      this.phase = CARD_PHASE.rejected;
      void this.updateComplete.then(() => (this.renderRoot.querySelector('h3') as HTMLElement | null)?.focus());
      return;
    }
    this.complete(result);
  }

  /** After a refusal: the method back to `assigned`, and a new picture. */
  async tryAgain(): Promise<void> {
    try {
      // The flow still shows this step as open (the refusal was never handed to it): no event.
      await this.client.retryMethod('secure_card');
    } catch (error: unknown) {
      this.error = this.report(error).message;
      return;
    }
    this.reason = null;
    this.phase = CARD_PHASE.intro;
  }

  private retake(): void {
    const source = this.scan?.source;
    this.forgetScan();
    if (source === 'upload') this.openUpload();
    else void this.openCamera();
  }

  protected override renderOwnScreen(): TemplateResult {
    switch (this.phase) {
      case CARD_PHASE.intro:
        return this.renderIntro();
      case CARD_PHASE.reading:
        return html`<p role="status">${msg('Reading the card on this device…', { id: 'card.reading' })}</p>`;
      case CARD_PHASE.review:
        return this.renderReview();
      case CARD_PHASE.unreadable:
        return this.renderUnreadable();
      default:
        return this.renderRejected();
    }
  }

  private renderIntro(): TemplateResult {
    return html`
      <p>${msg('Take a picture of the front of your payment card.', { id: 'card.intro' })}</p>
      <p class="muted">
        ${msg('The card number is read on this device and blacked out before anything is sent: only its last four digits leave your device.', {
          id: 'card.intro-privacy',
        })}
      </p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="actions">
        <button type="button" @click=${() => void this.openCamera()}>${msg('Use the camera', { id: 'doc.use-camera' })}</button>
        <button type="button" class="secondary" @click=${() => this.openUpload()}>${msg('Upload a file', { id: 'doc.upload' })}</button>
      </div>
    `;
  }

  protected override renderCamera(): TemplateResult {
    return this.renderCameraScreen(msg('Show the front of your card to the camera, inside the frame.', { id: 'card.show' }), 'guide');
  }

  protected override renderUpload(): TemplateResult {
    return this.renderUploadScreen(
      msg('Choose a photo of the front of your card (JPG or PNG, under 10 MB)', { id: 'card.upload.label' }),
      'image/jpeg,image/png',
    );
  }

  private renderReview(): TemplateResult {
    const scan = this.scan!;
    const r = scan.reading;
    const last4 = r.last4 ?? '';
    const expiry = r.expiry_month !== null && r.expiry_year !== null ? `${String(r.expiry_month).padStart(2, '0')}/${r.expiry_year}` : '—';
    return html`
      <h3 tabindex="-1">${msg('Check what will be sent', { id: 'card.review.title' })}</h3>
      <p>${msg('The card number is blacked out on this picture. Only what is listed here is sent.', { id: 'card.review.body' })}</p>
      ${scan.url ? html`<img class="review" src=${scan.url} alt=${msg('Your card, its number blacked out', { id: 'card.review.alt' })} />` : nothing}
      <dl class="reading">
        <dt>${msg('Card number', { id: 'card.field.number' })}</dt>
        <dd>${msg(str`Ending in ${last4}`, { id: 'card.field.ending' })}</dd>
        <dt>${msg('Card type', { id: 'card.field.brand' })}</dt>
        <dd>${BRAND_NAMES[r.brand ?? 'unknown']}</dd>
        <dt>${msg('Valid until', { id: 'card.field.expiry' })}</dt>
        <dd>${expiry}</dd>
        <dt>${msg('Name on the card', { id: 'card.field.name' })}</dt>
        <dd>${r.cardholder_name ?? '—'}</dd>
      </dl>
      ${r.luhn_valid ? nothing : html`<p class="notice">${msg('The number read does not look valid. You can retake the picture.', { id: 'card.review.luhn' })}</p>`}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="actions">
        <button type="button" @click=${() => void this.send()}>${msg('Send', { id: 'card.send' })}</button>
        <button type="button" class="secondary" @click=${() => this.retake()}>${msg('Retake', { id: 'doc.review.retake' })}</button>
      </div>
    `;
  }

  private renderUnreadable(): TemplateResult {
    return html`
      <h3 tabindex="-1">${msg('The card number could not be read', { id: 'card.unreadable.title' })}</h3>
      <p>${msg('Take the picture again in good light, with the card flat and filling the frame. Nothing has been sent.', { id: 'card.unreadable.body' })}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="actions">
        <button type="button" @click=${() => this.retake()}>${msg('Retake', { id: 'doc.review.retake' })}</button>
        <button type="button" class="secondary" @click=${() => void this.send()}>${msg('I cannot get it readable', { id: 'card.unreadable.give-up' })}</button>
      </div>
    `;
  }

  private renderRejected(): TemplateResult {
    return html`
      <h3 tabindex="-1">${msg('This card was not accepted', { id: 'card.rejected.title' })}</h3>
      <p role="alert">${cardRejectionText(this.reason) ?? msg('This step could not be verified.', { id: 'flow.step-rejected' })}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="actions">
        <button type="button" @click=${() => void this.tryAgain()}>${msg('Try this step again', { id: 'flow.step-retry' })}</button>
      </div>
    `;
  }
}
