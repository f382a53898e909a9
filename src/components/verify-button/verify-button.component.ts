import { LitElement, html, nothing } from 'lit';
import { emit, isEmbedMessage, type EmbedMessage, type OpenMode } from '../../events/events.js';
import { buttonLabel, type ButtonLabelKey } from '../../internal/button-labels.js';
import { EMBED_IFRAME_ALLOW } from '../../steps/permissions.js';
import styles from './verify-button.styles.js';

/** How the button opens the flow. */
export type ButtonMode = Exclude<OpenMode, 'inline'>;

/**
 * Opens the hosted verification page for one user: by navigating to it (`redirect`), in a modal
 * dialog with an iframe (`modal`), or in a popup window (`popup`).
 *
 * Kept free of `@lit/localize` so the single-file script-tag embed stays under its size budget:
 * its few labels come from a small built-in table (by `lang`, else the page's language) and are
 * replaceable through the default slot or `label`.
 *
 * @tagname verify-button
 * @summary The "Verify your identity" button customers embed.
 *
 * @slot - The button's label (defaults to a localised "Verify your identity").
 *
 * @event verify-start - The flow was opened. `detail: { mode }`.
 * @event verify-step-change - (modal / popup) The hosted page moved to another step.
 * @event verify-complete - (modal / popup) The user finished. `detail: { reference_id, status, redirect_url }`.
 * @event verify-error - Opening failed or the flow reported an error. `detail: { code, message, retryable }`.
 * @event verify-request-close - Cancelable; before the modal closes. `detail: { source }`.
 *
 * @csspart button - The native button.
 * @csspart dialog - The modal `<dialog>`.
 * @csspart iframe - The iframe showing the hosted page.
 * @csspart close - The modal's close button.
 *
 * @cssproperty --verify-primary - Brand colour (button background).
 * @cssproperty --verify-on-primary - Text colour on the brand colour.
 * @cssproperty --verify-button-background - Button background (overrides `--verify-primary`).
 * @cssproperty --verify-button-color - Button text colour.
 * @cssproperty --verify-radius - Corner radius.
 * @cssproperty --verify-font - Font family.
 * @cssproperty --verify-focus - Focus ring colour.
 * @cssproperty --verify-modal-width - Modal width (default 480px).
 * @cssproperty --verify-modal-height - Modal height (default 760px).
 */
export class VerifyButton extends LitElement {
  static override styles = styles;

  static override properties = {
    link: { type: String },
    shortUrl: { type: String, attribute: 'short-url' },
    mode: { type: String, reflect: true },
    label: { type: String },
    disabled: { type: Boolean, reflect: true },
    busy: { type: Boolean, reflect: true },
    open: { type: Boolean, reflect: true },
  };

  /** The user's `magic_link` from the API. */
  declare link: string;
  /** The link's `short_url` (used when `link` is not set). */
  declare shortUrl: string;
  /** `redirect` (default), `modal` or `popup`. */
  declare mode: ButtonMode;
  /** Button text; the default slot wins over it. */
  declare label: string;
  /** Disables the button. */
  declare disabled: boolean;
  /** Shows a spinner and blocks clicks (e.g. while the customer's backend fetches the link). */
  declare busy: boolean;
  /** Whether the modal or popup is open (read-only; a popup closed by hand is noticed on the next click). */
  declare open: boolean;

  private popup: Window | null = null;

  constructor() {
    super();
    this.link = '';
    this.shortUrl = '';
    this.mode = 'redirect';
    this.label = '';
    this.disabled = false;
    this.busy = false;
    this.open = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('message', this.onMessage);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('message', this.onMessage);
  }

  /** The URL the button opens (link or short URL), or null when neither is a valid http(s) URL. */
  get targetUrl(): URL | null {
    const raw = this.link || this.shortUrl;
    if (!raw) return null;
    try {
      const url = new URL(raw, document.baseURI);
      return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
    } catch {
      return null;
    }
  }

  /** Opens the flow in the configured mode (what a click does). */
  show = async (): Promise<void> => {
    const target = this.targetUrl;
    if (this.disabled || this.busy) return;
    // A popup the user closed by hand (no message is sent then) is forgotten here.
    if (this.popup?.closed) this.close();
    if (!target) {
      emit(this, 'verify-error', { code: 'link_invalid', message: 'No valid link', retryable: false });
      return;
    }
    const mode: ButtonMode = this.mode === 'modal' || this.mode === 'popup' ? this.mode : 'redirect';
    if (mode === 'redirect') {
      emit(this, 'verify-start', { mode });
      window.location.assign(target.href);
      return;
    }
    const embedUrl = new URL(target.href);
    // The hash is not part of the signed query; it tells the hosted page whom to talk to.
    embedUrl.hash = `verity-embed=${mode}&verity-origin=${encodeURIComponent(window.location.origin)}`;
    if (mode === 'popup') {
      const popup = window.open(embedUrl.href, 'verity-verification', 'popup,width=480,height=760');
      if (!popup) {
        emit(this, 'verify-error', {
          code: 'popup_blocked',
          message: 'Popup blocked',
          retryable: true,
        });
        return;
      }
      this.popup = popup;
      this.open = true;
      emit(this, 'verify-start', { mode });
      return;
    }
    this.open = true;
    await this.updateComplete;
    const iframe = this.renderRoot.querySelector('iframe');
    if (iframe) iframe.src = embedUrl.href;
    this.renderRoot.querySelector('dialog')?.showModal();
    (this.renderRoot.querySelector('[part="close"]') as HTMLElement | null)?.focus();
    emit(this, 'verify-start', { mode });
  };

  /**
   * Asks to close the modal or popup: fires the cancelable `verify-request-close` and closes
   * unless a listener prevented it. Returns whether it closed.
   */
  requestClose(source: 'close-button' | 'escape' | 'overlay' | 'complete' | 'flow' = 'close-button'): boolean {
    if (!this.open) return false;
    if (!emit(this, 'verify-request-close', { source })) return false;
    this.close();
    return true;
  }

  private close(): void {
    this.open = false;
    this.renderRoot.querySelector('dialog')?.close();
    const iframe = this.renderRoot.querySelector('iframe');
    if (iframe) iframe.removeAttribute('src');
    if (this.popup && !this.popup.closed) this.popup.close();
    this.popup = null;
    // Closing a modal <dialog> returns focus to where it was before showModal().
  }

  /** Accepts messages only from the exact origin of the link and from our own frame / popup. */
  private onMessage = (event: MessageEvent): void => {
    const target = this.targetUrl;
    if (!target || event.origin !== target.origin) return;
    const frame = this.renderRoot.querySelector('iframe');
    const fromOurs = (frame !== null && event.source === frame.contentWindow) || (this.popup !== null && event.source === this.popup);
    if (!fromOurs || !isEmbedMessage(event.data)) return;
    this.handleEmbedMessage(event.data);
  };

  private handleEmbedMessage(message: EmbedMessage): void {
    switch (message.type) {
      case 'ready':
        return;
      case 'step-change':
        emit(this, 'verify-step-change', message.detail);
        return;
      case 'complete':
        emit(this, 'verify-complete', message.detail);
        this.requestClose('complete');
        return;
      case 'error':
        emit(this, 'verify-error', message.detail);
        return;
      case 'close':
        this.requestClose('flow');
        return;
    }
  }

  private onDialogCancel(event: Event): void {
    // Esc: the dialog would close by itself; route it through the cancelable request instead.
    event.preventDefault();
    this.requestClose('escape');
  }

  private onDialogClose(): void {
    // The browser may close the dialog itself (Esc without a prior user activation cannot be
    // cancelled): keep our state in step.
    if (this.open) this.close();
  }

  private onDialogClick(event: MouseEvent): void {
    if (event.target === event.currentTarget) this.requestClose('overlay');
  }

  protected override render() {
    const inactive = this.disabled || this.busy;
    const lang = this.closest('[lang]')?.getAttribute('lang') ?? navigator.language;
    const label = (key: ButtonLabelKey): string => buttonLabel(lang, key);
    // Kept compact: this template ships in the size-budgeted script-tag embed.
    return html`<button part="button" type="button" aria-disabled=${inactive} aria-busy=${this.busy} @click=${this.show}>
        <slot>${this.label || label('open')}</slot></button
      >${
        this.mode === 'modal'
          ? // A click on the backdrop closes like Escape does (the dialog's own cancel handles the keyboard).
            // eslint-disable-next-line lit-a11y/click-events-have-key-events
            html`<dialog part="dialog" aria-label=${label('open')} @cancel=${this.onDialogCancel} @close=${this.onDialogClose} @click=${this.onDialogClick}>
              <button part="close" type="button" aria-label=${label('close')} @click=${() => this.requestClose()}>×</button>
              ${this.open ? html`<iframe part="iframe" title=${label('open')} allow=${EMBED_IFRAME_ALLOW}></iframe>` : nothing}
            </dialog>`
          : nothing
      }`;
  }
}
