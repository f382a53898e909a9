import { css, html, nothing } from 'lit';
import { adminStyles } from '../styles.js';
import { AdminView } from './admin-view.js';
import type { AdminNotice } from '../../api/admin/notices.js';

export type { AdminNotice };

/** An admin notice as `GET /admin/api/notices` answers it. */
/** Where the admin can act on a notice of a kind (webhook notices: the developer settings). */
function placeFor(kind: string): { href: string; label: string } | null {
  return kind.startsWith('webhook') ? { href: '/admin/developers', label: 'Open the webhook settings' } : null;
}

/**
 * The admin notices not yet read ("webhook endpoint disabled", "deliveries failed"), each with a
 * button that marks it read (`POST /admin/api/notices/:id/read`). Renders nothing while there are
 * none to show. When a notice is marked read its item goes, and focus moves to the next notice's
 * button (or to the heading after the last), so a keyboard or screen-reader user is never left on
 * an element that vanished.
 *
 * @tagname admin-notices
 */
export class AdminNotices extends AdminView {
  static override styles = [
    adminStyles,
    css`
      section {
        border: 1px solid var(--verity-warn, #b45309);
        border-radius: 6px;
        padding: 0 1rem 0.5rem;
        margin-block: 1rem;
        background: var(--verity-warn-surface, #fffbeb);
      }
      ul {
        list-style: none;
        padding: 0;
        margin: 0;
      }
      li {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: baseline;
        padding-block: 0.5rem;
        border-bottom: 1px solid var(--verity-warn-border, #f3d9a4);
      }
      li:last-child {
        border-bottom: 0;
      }
      .message {
        flex: 1 1 20rem;
        margin: 0;
      }
    `,
  ];

  static override properties = { ...AdminView.properties, notices: { state: true }, loaded: { state: true }, busy: { state: true } };
  /** Unread notices, newest first. */
  declare notices: AdminNotice[];
  /** Whether the first answer came (before it, and when it had no notices, nothing is shown). */
  declare loaded: boolean;
  /** A mark-read request is under way (further clicks are ignored until it ends). */
  declare busy: boolean;
  /** Whether this element showed notices since it loaded (then it stays, to say none are left). */
  #shown = false;

  constructor() {
    super();
    this.notices = [];
    this.loaded = false;
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  /** (Re)reads the unread notices. */
  async load(): Promise<void> {
    const res = await this.run(() => this.client.get<{ data: AdminNotice[] }>('/admin/api/notices?unread=true'));
    if (res) this.notices = res.data.filter((n) => n.read_at === null);
    if (this.notices.length > 0) this.#shown = true;
    this.loaded = true;
  }

  async #markRead(notice: AdminNotice): Promise<void> {
    // Clicks while a request runs are ignored (the buttons stay enabled: disabling the focused
    // button would drop keyboard focus).
    if (this.busy) return;
    const index = this.notices.indexOf(notice);
    this.busy = true;
    const done = await this.run(() => this.client.post(`/admin/api/notices/${notice.id}/read`), 'Notice marked as read.');
    this.busy = false;
    if (done === undefined) return;
    this.notices = this.notices.filter((n) => n.id !== notice.id);
    await this.#focusAfterRemoval(index);
  }

  async #markAllRead(): Promise<void> {
    if (this.busy) return;
    const all = [...this.notices];
    this.busy = true;
    const done = await this.run(async () => {
      for (const n of all) await this.client.post(`/admin/api/notices/${n.id}/read`);
      return true;
    }, 'All notices marked as read.');
    this.busy = false;
    // Those marked before a failure are gone either way: reread what is left.
    if (done === undefined) await this.load();
    else this.notices = this.notices.filter((n) => !all.includes(n));
    await this.#focusAfterRemoval(0);
  }

  /** Focus goes to the notice now at `index` (or the one before it), else to the heading. */
  async #focusAfterRemoval(index: number): Promise<void> {
    await this.updateComplete;
    const buttons = [...this.renderRoot.querySelectorAll<HTMLButtonElement>('button.mark-read')];
    const target = buttons[Math.min(index, buttons.length - 1)] ?? this.renderRoot.querySelector<HTMLElement>('#notices-title');
    target?.focus();
  }

  override render() {
    if (!this.loaded || !this.#shown) return html`${this.feedback()}`;
    const count = this.notices.length;
    return html`<section aria-labelledby="notices-title">
        <h2 id="notices-title" tabindex="-1">Needs your attention${count ? ` (${count})` : ''}</h2>
        ${
          count === 0
            ? html`<p>Nothing needs your attention now.</p>`
            : html`<ul>
                  ${this.notices.map((n) => {
                    const place = placeFor(n.kind);
                    return html`<li>
                      <p class="message" id=${`notice-${n.id}`}>${n.message} <span class="muted">(${n.created_at})</span></p>
                      ${place ? html`<a href=${place.href}>${place.label}</a>` : nothing}
                      <button type="button" class="secondary mark-read" aria-describedby=${`notice-${n.id}`} @click=${() => void this.#markRead(n)}>
                        Mark as read
                      </button>
                    </li>`;
                  })}
                </ul>
                ${
                  count > 1 ? html`<p><button type="button" class="secondary" @click=${() => void this.#markAllRead()}>Mark all as read</button></p>` : nothing
                }`
        }
      </section>
      ${this.feedback()}`;
  }
}

if (!customElements.get('admin-notices')) customElements.define('admin-notices', AdminNotices);

declare global {
  interface HTMLElementTagNameMap {
    'admin-notices': AdminNotices;
  }
}
