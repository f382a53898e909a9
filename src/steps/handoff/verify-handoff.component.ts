import { ContextConsumer } from '@lit/context';
import { msg, updateWhenLocaleChanges } from '@lit/localize';
import { LitElement, html, nothing, svg } from 'lit';
import type { HandoffResponse } from '../../api/contract.js';
import { fromApiError } from '../../internal/errors.js';
import { flowContext } from '../../internal/flow-context.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { StepErrorEvent } from '../../internal/step-events.js';
import { qrPath } from './qr.js';
import styles from './verify-handoff.styles.js';

/**
 * Cross-device hand-off (internal to `<verify-flow>`): creates a one-time hand-off link, shows it
 * as a QR code and a short link, and follows the session live; each session update is passed to
 * the flow as a non-composed `handoff-session` event.
 */
export class VerifyHandoff extends LitElement {
  static override styles = [sharedStyles, styles];
  static override properties = { handoff: { state: true }, status: { state: true }, error: { state: true } };

  declare private handoff: HandoffResponse | null;
  declare private status: string;
  declare private error: string;
  private readonly flow = new ContextConsumer(this, { context: flowContext, subscribe: true });
  private abort: AbortController | null = null;

  constructor() {
    super();
    updateWhenLocaleChanges(this);
    this.handoff = null;
    this.status = '';
    this.error = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.create();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.abort?.abort();
  }

  /** Creates the hand-off link and starts following progress. */
  async create(): Promise<void> {
    const client = this.flow.value?.client;
    if (!client) return;
    this.error = '';
    try {
      this.handoff = await client.createHandoff();
      this.status = msg('Waiting for your phone…', { id: 'handoff.waiting' });
      this.abort?.abort();
      this.abort = new AbortController();
      await client.follow((event) => {
        if (event.type === 'handoff') {
          this.status =
            event.data.phase === 'claimed'
              ? msg('Your phone is connected. Carry on there.', { id: 'handoff.claimed' })
              : msg('Your phone has finished.', { id: 'handoff.finished' });
        } else {
          this.dispatchEvent(new CustomEvent('handoff-session', { detail: event.data, bubbles: true, composed: false }));
        }
      }, this.abort.signal);
    } catch (error: unknown) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      const mapped = fromApiError(error);
      this.error = mapped.message;
      this.dispatchEvent(new StepErrorEvent(mapped));
    }
  }

  protected override render() {
    if (this.error) {
      return html`<p class="error" role="alert">${this.error}</p>
        <div class="actions"><button type="button" @click=${() => void this.create()}>${msg('Try again', { id: 'handoff.retry' })}</button></div>`;
    }
    if (!this.handoff) return html`<p role="status">${msg('Loading…', { id: 'flow.loading' })}</p>`;
    const { d, size } = qrPath(this.handoff.url);
    return html`
      <p>${msg('Scan this code with your phone camera, or open the link below on your phone. The link works once.', { id: 'handoff.body' })}</p>
      <svg class="qr" viewBox="0 0 ${size} ${size}" role="img" aria-label=${msg('QR code of the link to continue on your phone', { id: 'handoff.qr-label' })}>
        ${svg`<rect width=${size} height=${size} fill="#fff"></rect><path d=${d} fill="#000"></path>`}
      </svg>
      <p class="link">${this.handoff.short_url}</p>
      ${this.status ? html`<p role="status" aria-live="polite">${this.status}</p>` : nothing}
    `;
  }
}
