import { LitElement, css, html, nothing } from 'lit';
import { AdminApi, AdminApiError } from '../admin/api.js';
import { readableBrand } from '../theme/contrast.js';
import type { SignupConfig, SignupConfirmed, SignupStarted } from '../api/admin/signup.js';

/** Where the signing-up browser is. */
const Stage = { loading: 'loading', closed: 'closed', details: 'details', code: 'code', leaving: 'leaving' } as const;
type Stage = (typeof Stage)[keyof typeof Stage];

/**
 * The self-signup page (`/signup`): e-mail (and, as configured, names and phone), then the 6-digit
 * code sent by e-mail, then on to the verification flow through the magic link the server hands
 * back. Talks to `/signup/api/*` (same origin).
 */
export class SignupPage extends LitElement {
  static override styles = css`
    :host {
      display: block;
      max-width: 28rem;
      margin: var(--verity-space-6, 2rem) auto;
      padding: 0 var(--verity-space-4, 1rem);
      font-family: var(--verity-font, system-ui, sans-serif);
      color: var(--verity-text, #14171f);
      line-height: var(--verity-line, 1.5);
    }
    main {
      background: var(--verity-surface, #fff);
      border: 1px solid var(--verity-border, #d5d9e0);
      border-radius: var(--verity-radius-lg, 10px);
      padding: var(--verity-space-5, 1.5rem);
    }
    h1 {
      font-size: var(--verity-text-xl, 1.5rem);
      line-height: 1.25;
      margin: var(--verity-space-2, 0.5rem) 0 var(--verity-space-4, 1rem);
    }
    form {
      display: grid;
      gap: var(--verity-space-3, 0.75rem);
    }
    label {
      display: grid;
      gap: var(--verity-space-1, 0.25rem);
      font-weight: 500;
    }
    input {
      font: inherit;
      padding: var(--verity-space-2, 0.5rem);
      border: 1px solid var(--verity-border-strong, #6b7280);
      border-radius: var(--verity-radius, 6px);
      background: var(--verity-surface, #fff);
      color: inherit;
    }
    button {
      font: inherit;
      font-weight: 600;
      padding: var(--verity-space-2, 0.5rem) var(--verity-space-4, 1rem);
      border-radius: var(--verity-radius, 6px);
      border: 0;
      background: var(--signup-primary, var(--verity-primary, #1d4ed8));
      color: var(--signup-on-primary, var(--verity-on-primary, #fff));
      cursor: pointer;
    }
    button.link {
      background: none;
      color: var(--verity-link, #1d4ed8);
      text-decoration: underline;
      padding: 0;
    }
    .error {
      color: var(--verity-danger, #b91c1c);
    }
    :focus-visible {
      outline: var(--verity-focus-width, 3px) solid var(--verity-focus, #c2410c);
      outline-offset: 2px;
    }
  `;

  static override properties = { stage: { state: true }, config: { state: true }, error: { state: true }, status: { state: true } };
  declare stage: Stage;
  declare config: SignupConfig | undefined;
  declare error: string;
  declare status: string;
  #api = new AdminApi();
  #token = '';

  constructor() {
    super();
    this.stage = Stage.loading;
    this.error = '';
    this.status = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
  }

  async #load(): Promise<void> {
    try {
      this.config = await this.#api.get<SignupConfig>('/signup/api/config');
      // The account's colour as a custom property through CSSOM (the page's CSP forbids style attributes).
      // Kept readable on the page's surface in light and dark mode (src/theme/contrast.ts).
      const surface = getComputedStyle(this).getPropertyValue('--verity-surface').trim() || '#ffffff';
      const brand = this.config.branding.primary_color ? readableBrand(this.config.branding.primary_color, surface) : undefined;
      if (brand) {
        this.style.setProperty('--signup-primary', brand.primary);
        this.style.setProperty('--signup-on-primary', brand.onPrimary);
      }
      this.stage = this.config.enabled ? Stage.details : Stage.closed;
    } catch {
      this.stage = Stage.closed;
    }
  }

  #fail(error: unknown): void {
    this.error = error instanceof AdminApiError ? error.messageFor() : 'Something went wrong; please try again.';
  }

  async #start(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    const body: Record<string, string> = { email: String(f.get('email')), locale: navigator.language };
    for (const k of ['first_name', 'last_name', 'phone']) {
      const v = String(f.get(k) ?? '').trim();
      if (v) body[k] = v;
    }
    this.error = '';
    try {
      const res = await this.#api.post<SignupStarted>('/signup/api/start', body);
      this.#token = res.token;
      this.stage = Stage.code;
      this.status = `We sent a 6-digit code to ${body.email}.`;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('input[name=code]')?.focus();
    } catch (error: unknown) {
      this.#fail(error);
    }
  }

  async #confirm(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const code = String(new FormData(e.target as HTMLFormElement).get('code')).trim();
    this.error = '';
    try {
      const res = await this.#api.post<SignupConfirmed>('/signup/api/confirm', { token: this.#token, code });
      this.stage = Stage.leaving;
      this.status = 'Confirmed. Taking you to the verification…';
      const target = new URL(res.magic_link, location.href);
      if (target.protocol === 'https:' || target.protocol === 'http:') location.assign(target.href);
    } catch (error: unknown) {
      this.#fail(error);
    }
  }

  async #resend(): Promise<void> {
    this.error = '';
    try {
      await this.#api.post('/signup/api/resend', { token: this.#token });
      this.status = 'We sent a new code.';
    } catch (error: unknown) {
      this.#fail(error);
    }
  }

  #body() {
    const c = this.config;
    switch (this.stage) {
      case Stage.loading:
        return html`<p>Loading…</p>`;
      case Stage.closed:
        return html`<p>Signing up is not open at the moment.</p>`;
      case Stage.details:
        return html`<form @submit=${this.#start}>
          <label>E-mail <input name="email" type="email" autocomplete="email" required /></label>
          ${
            c?.ask_name
              ? html`<label>First name (optional) <input name="first_name" autocomplete="given-name" /></label>
                  <label>Last name (optional) <input name="last_name" autocomplete="family-name" /></label>`
              : nothing
          }
          ${c?.ask_phone ? html`<label>Phone, with country code (optional) <input name="phone" type="tel" autocomplete="tel" /></label>` : nothing}
          <button type="submit">Sign up</button>
        </form>`;
      case Stage.code:
        return html`<form @submit=${this.#confirm}>
          <label>Code from the e-mail <input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required /></label>
          <button type="submit">Confirm</button>
          <p><button type="button" class="link" @click=${() => this.#resend()}>Send a new code</button></p>
        </form>`;
      default:
        return nothing;
    }
  }

  override render() {
    const c = this.config;
    return html`<main>
      ${c?.branding.logo_url ? html`<img src=${c.branding.logo_url} alt=${`${c.account_name} logo`} height="40" />` : nothing}
      <h1>Sign up${c ? ` with ${c.account_name}` : ''}</h1>
      <p role="status">${this.status}</p>
      <p role="alert" class="error">${this.error}</p>
      ${this.#body()}
    </main>`;
  }
}

if (!customElements.get('signup-page')) customElements.define('signup-page', SignupPage);

declare global {
  interface HTMLElementTagNameMap {
    'signup-page': SignupPage;
  }
}
