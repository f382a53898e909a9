import { msg } from '@lit/localize';
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { VerifyError } from '../events/events.js';
import { cameraDevice } from './camera-device.js';
import { cameraHelp, copyLinkText, copyPageLink, type CameraWayForward } from './camera-help.js';

/** What a camera step offers after its camera failed; a way left out is not shown. */
export interface WayForwardOptions {
  /** Opens the camera again. */
  retry(): void;
  /** Lets the user upload a file instead (steps that take a picture of a document or card). */
  upload?(): void;
  /** Whether the flow offers the hand-off to a phone now (`context.handoffEnabled`). */
  handoffEnabled(): boolean;
  /** Asks the flow for the hand-off (`StepElement.requestHandoff`). */
  handoff(): void;
  /** Offers to copy the page's link for the real browser (in-app webviews that cannot use the camera). */
  openBrowser?: boolean;
  /**
   * Told after each render whether the hand-off button is on screen (`StepElement.offersHandoff`):
   * the flow then leaves out its own link, so the user sees one way to it, not two.
   */
  handoffShown?(shown: boolean): void;
}

/**
 * The buttons of the ways forward after a camera failure ({@link cameraHelp}'s actions): one
 * implementation for every camera step. Holds whether the link was copied, and re-renders its
 * host when that changes.
 */
export class CameraWayForwardController implements ReactiveController {
  private copied: boolean | null = null;
  /** The hand-off button was drawn in the render under way. */
  private handoffDrawn = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: WayForwardOptions,
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  hostUpdate(): void {
    this.handoffDrawn = false;
  }

  hostUpdated(): void {
    this.options.handoffShown?.(this.handoffDrawn);
  }

  /**
   * The alert after a camera step failed: the camera's own problem (`error`, the camera
   * controller's) in words with its ways forward, or else `otherwise` (a message) with "Try again".
   */
  failure(error: VerifyError | null | undefined, otherwise = ''): TemplateResult {
    const help = error ? cameraHelp(error.code) : null;
    return html`<div class="notice" role="alert">
      <p class="error">${help ? help.message : otherwise}</p>
      <div class="actions">${help ? this.buttons(help.actions) : this.button('retry')}</div>
    </div>`;
  }

  /** The buttons of several ways forward, in order. */
  buttons(actions: readonly CameraWayForward[]): (TemplateResult | typeof nothing)[] {
    return actions.map((action) => this.button(action));
  }

  /** The button of one way forward, or nothing when the step does not offer it. */
  button(action: CameraWayForward): TemplateResult | typeof nothing {
    const o = this.options;
    switch (action) {
      case 'retry':
        return html`<button type="button" @click=${() => o.retry()}>${msg('Try again', { id: 'camera.retry' })}</button>`;
      case 'upload':
        return o.upload
          ? html`<button type="button" class="secondary" @click=${() => o.upload?.()}>${msg('Upload a file instead', { id: 'doc.upload-instead' })}</button>`
          : nothing;
      case 'handoff':
        if (!o.handoffEnabled()) return nothing;
        this.handoffDrawn = true;
        // On a phone the other device is a computer or another phone: "my phone" would be this one.
        return html`<button type="button" class="secondary" @click=${() => o.handoff()}>
          ${cameraDevice() === 'phone' ? msg('Continue on another device', { id: 'flow.handoff.offer' }) : msg('Use my phone instead', { id: 'camera.handoff' })}
        </button>`;
      case 'open-browser':
        return o.openBrowser
          ? html`<button type="button" class="secondary" @click=${() => void this.copyLink()}>
                ${msg('Copy the link for my browser', { id: 'camera.copy' })}
              </button>
              ${this.copied !== null ? html`<p role="status">${copyLinkText(this.copied)}</p>` : nothing}`
          : nothing;
    }
  }

  private async copyLink(): Promise<void> {
    this.copied = await copyPageLink();
    this.host.requestUpdate();
  }
}
