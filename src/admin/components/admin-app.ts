import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { AdminApi, AdminApiError } from '../api.js';
import './admin-sign-in.js';
import './admin-overview.js';
import './admin-users.js';
import './admin-reviews.js';
import './admin-live-video.js';
import './admin-bank-payouts.js';
import './admin-user-page.js';
import './admin-templates.js';
import './admin-settings.js';
import './admin-developers.js';
import './admin-activity.js';
import './admin-invite.js';
import type { SignedInEvent } from './admin-sign-in.js';
import type { SessionAnswer } from '../../api/admin/session.js';

/** The dashboard's views and their paths under `/admin`. */
const NAV = [
  ['', 'Overview'],
  ['users', 'Users'],
  ['reviews', 'Reviews'],
  ['live-video', 'Live video'],
  ['bank-payouts', 'Bank payouts'],
  ['templates', 'Templates'],
  ['settings', 'Settings'],
  ['developers', 'Developers'],
  ['activity', 'Activity and admins'],
] as const;

/** `/admin/<view>[/<id>]` → the view and id. */
export function parseRoute(pathname: string): { view: string; id: number | undefined } {
  const parts = pathname
    .replace(/^\/admin\/?/, '')
    .split('/')
    .filter(Boolean);
  const id = parts[1] && /^\d+$/.test(parts[1]) ? Number(parts[1]) : undefined;
  return { view: parts[0] ?? '', id };
}

/**
 * The dashboard application at `/admin`: sign-in when there is no session, else the navigation
 * and the current view. Links are real `<a href>`s; clicks on them are routed on the client with
 * the History API, and focus moves to the new view's heading so screen readers announce it.
 */
export class AdminApp extends LitElement {
  static override styles = css`
    :host {
      display: block;
      font-family: var(--verity-font, system-ui, sans-serif);
      color: var(--verity-text, #14171f);
    }
    /* A button, not an in-page link: the target sits in a shadow root an href cannot name. */
    .skip {
      position: absolute;
      left: -999px;
      color: var(--verity-text, #14171f);
      border-color: var(--verity-text, #14171f);
    }
    .skip:focus {
      left: 0.5rem;
      top: 0.5rem;
      background: var(--verity-surface, #fff);
      padding: 0.5rem;
      z-index: 1;
    }
    header {
      display: flex;
      flex-wrap: wrap;
      gap: 1rem;
      align-items: center;
      justify-content: space-between;
      padding: 0.75rem 1rem;
      /* The header is dark navy in both schemes: its white text and amber focus ring hold in both. */
      background: #0f172a;
      color: #fff;
      border-block-end: 1px solid var(--verity-border, #d5d9e0);
    }
    header a,
    header button {
      color: #fff;
    }
    header :focus-visible {
      outline-color: #fbbf24;
    }
    nav ul {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem 1rem;
      list-style: none;
      margin: 0;
      padding: 0;
    }
    nav a[aria-current='page'] {
      font-weight: 700;
      text-decoration-thickness: 3px;
    }
    button {
      font: inherit;
      background: transparent;
      border: 1px solid #fff;
      border-radius: 4px;
      padding: 0.25rem 0.7rem;
      cursor: pointer;
    }
    main {
      padding: var(--verity-space-5, 1.5rem) var(--verity-space-4, 1rem);
      max-width: 72rem;
      margin-inline: auto;
    }
    :focus-visible {
      outline: 3px solid var(--verity-focus, #c2410c);
      outline-offset: 2px;
    }
  `;

  static override properties = { api: { attribute: false }, admin: { state: true }, checked: { state: true }, route: { state: true } };
  declare api: AdminApi;
  declare admin: { id: number; email: string } | undefined;
  /** Whether the session check has answered. */
  declare checked: boolean;
  declare route: { view: string; id: number | undefined };

  constructor() {
    super();
    this.api = new AdminApi();
    this.checked = false;
    this.route = parseRoute(location.pathname);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.api.onUnauthenticated = () => {
      this.admin = undefined;
    };
    window.addEventListener('popstate', this.#onPop);
    void this.#checkSession();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.#onPop);
  }

  readonly #onPop = () => {
    this.route = parseRoute(location.pathname);
    void this.#focusHeading();
  };

  async #checkSession(): Promise<void> {
    try {
      const res = await this.api.get<SessionAnswer>('/admin/api/session');
      this.admin = res.admin;
    } catch (error: unknown) {
      if (!(error instanceof AdminApiError)) throw error;
      this.admin = undefined;
    }
    this.checked = true;
  }

  /** Client-side navigation for same-origin `/admin/…` links (plain clicks only). */
  #onClick = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.composedPath().find((n): n is HTMLAnchorElement => n instanceof HTMLAnchorElement);
    if (!a || a.target || a.origin !== location.origin || !a.pathname.startsWith('/admin') || a.pathname.startsWith('/admin/api')) return;
    e.preventDefault();
    this.navigate(a.pathname);
  };

  /** Goes to a dashboard path. */
  navigate(path: string): void {
    history.pushState(null, '', path);
    this.route = parseRoute(path);
    void this.#focusHeading();
  }

  async #focusHeading(): Promise<void> {
    await this.updateComplete;
    const view = this.renderRoot.querySelector('main > *');
    if (view instanceof LitElement) await view.updateComplete;
    (view?.shadowRoot?.querySelector('h1') as HTMLElement | null)?.focus();
  }

  async #signOut(): Promise<void> {
    try {
      await this.api.del('/admin/api/session');
    } finally {
      this.admin = undefined;
    }
  }

  #view(): TemplateResult {
    const { view, id } = this.route;
    switch (view) {
      case 'users':
        return id
          ? html`<admin-user-page .api=${this.api} user-id=${id} @user-deleted=${() => this.navigate('/admin/users')}></admin-user-page>`
          : html`<admin-users .api=${this.api}></admin-users>`;
      case 'reviews':
        return html`<admin-reviews .api=${this.api}></admin-reviews>`;
      case 'live-video':
        return html`<admin-live-video .api=${this.api}></admin-live-video>`;
      case 'bank-payouts':
        return html`<admin-bank-payouts .api=${this.api}></admin-bank-payouts>`;
      case 'templates':
        return html`<admin-templates .api=${this.api}></admin-templates>`;
      case 'settings':
        return html`<admin-settings .api=${this.api}></admin-settings>`;
      case 'developers':
        return html`<admin-developers .api=${this.api}></admin-developers>`;
      case 'activity':
        return html`<admin-activity .api=${this.api}></admin-activity>`;
      default:
        return html`<admin-overview .api=${this.api}></admin-overview>`;
    }
  }

  override render() {
    if (!this.checked) return html`<main><p role="status">Loading…</p></main>`;
    if (!this.admin && this.route.view === 'invite') return html`<main><admin-invite .api=${this.api}></admin-invite></main>`;
    if (!this.admin) {
      return html`<main>
        <admin-sign-in
          .api=${this.api}
          @signed-in=${(e: SignedInEvent) => {
            this.admin = e.admin;
            if (this.route.view === 'invite') this.navigate('/admin');
            void this.#focusHeading();
          }}
        ></admin-sign-in>
      </main>`;
    }
    const current = this.route.view;
    // The listener only intercepts clicks on the links inside, which Enter activates as clicks too.
    // eslint-disable-next-line lit-a11y/click-events-have-key-events
    return html`<div @click=${this.#onClick}>
      <button type="button" class="skip" @click=${() => this.#focusHeading()}>Skip to content</button>
      <header>
        <nav aria-label="Dashboard">
          <ul>
            ${NAV.map(([path, label]) => html`<li><a href="/admin${path ? `/${path}` : ''}" aria-current=${path === current ? 'page' : nothing}>${label}</a></li>`)}
          </ul>
        </nav>
        <div>${this.admin.email} <button type="button" @click=${() => this.#signOut()}>Sign out</button></div>
      </header>
      <main id="main" tabindex="-1">${this.#view()}</main>
    </div>`;
  }
}

if (!customElements.get('admin-app')) customElements.define('admin-app', AdminApp);

declare global {
  interface HTMLElementTagNameMap {
    'admin-app': AdminApp;
  }
}
