import { html, nothing, svg } from 'lit';
import { qrPath } from '../../steps/handoff/qr.js';
import type { LinkAnswer } from '../../api/admin/users.js';
import { AdminView } from './admin-view.js';

/** A user's verify link: make it, copy it, send it by e-mail or SMS, show it as a QR code. */
export class AdminLinkPanel extends AdminView {
  static override properties = {
    ...AdminView.properties,
    userId: { type: Number, attribute: 'user-id' },
    hasPhone: { type: Boolean, attribute: 'has-phone' },
    link: { state: true },
  };
  declare userId: number;
  declare hasPhone: boolean;
  declare link: LinkAnswer | undefined;

  constructor() {
    super();
    this.userId = 0;
    this.hasPhone = false;
  }

  async #make(send?: 'email' | 'sms'): Promise<void> {
    const done = send === 'email' ? 'The link was sent by e-mail.' : send === 'sms' ? 'The link was sent by SMS.' : 'A new link was made.';
    const link = await this.run(() => this.client.post<LinkAnswer>(`/admin/api/users/${this.userId}/link`, send ? { send } : {}), done);
    if (link) this.link = link;
  }

  async #copy(): Promise<void> {
    if (!this.link) return;
    await this.run(() => navigator.clipboard.writeText(this.link!.full_url), 'Link copied.');
  }

  override render() {
    const qr = this.link ? qrPath(this.link.short_url) : undefined;
    return html`<section aria-labelledby="link-title">
      <h2 id="link-title">Verify link</h2>
      <div class="row">
        <button type="button" class="secondary" @click=${() => this.#make()}>Make link</button>
        <button type="button" class="secondary" @click=${() => this.#make('email')}>Send by e-mail</button>
        ${this.hasPhone ? html`<button type="button" class="secondary" @click=${() => this.#make('sms')}>Send by SMS</button>` : nothing}
      </div>
      ${
        this.link && qr
          ? html`<p>
                <label>Link <input class="link" readonly .value=${this.link.full_url} size="60" /></label>
              </p>
              <p>Short link: <a href=${this.link.short_url} class="short">${this.link.short_url}</a> (valid until ${this.link.expires_at})</p>
              <p><button type="button" @click=${() => this.#copy()}>Copy link</button></p>
              <svg role="img" aria-label="QR code of the short link" viewBox="0 0 ${qr.size} ${qr.size}" width="180" height="180" shape-rendering="crispEdges">
                ${svg`<rect width=${qr.size} height=${qr.size} fill="#fff"></rect><path d=${qr.d} fill="#000"></path>`}
              </svg>`
          : nothing
      }
      ${this.feedback()}
    </section>`;
  }
}

if (!customElements.get('admin-link-panel')) customElements.define('admin-link-panel', AdminLinkPanel);

declare global {
  interface HTMLElementTagNameMap {
    'admin-link-panel': AdminLinkPanel;
  }
}
