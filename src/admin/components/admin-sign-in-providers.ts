import { css, html } from 'lit';
import { adminStyles } from '../styles.js';
import { AdminView } from './admin-view.js';
import type { SignInProviderListing, SignInProvidersAnswer } from '../../api/admin/sign-in-providers.js';

export type { SignInProviderListing };

/** A sign-in provider as `GET /admin/api/oidc-providers` lists it (never its secret). */
const PURPOSES = { social: 'Social Account', payment: 'Payment Account' } as const;

/**
 * The OpenID Connect providers users sign in with in the Social Account and Payment Account steps:
 * the list (no secrets), the redirect URI to register with each provider, a form to add one (the
 * server reads its discovery document before saving) and Remove.
 *
 * @tagname admin-sign-in-providers
 */
export class AdminSignInProviders extends AdminView {
  static override styles = [
    adminStyles,
    css`
      ul {
        padding-inline-start: 1.25rem;
      }
      li {
        margin-block: 0.5rem;
      }
      code {
        overflow-wrap: anywhere;
      }
    `,
  ];

  static override properties = { ...AdminView.properties, providers: { state: true }, redirectUri: { state: true } };
  declare providers: SignInProviderListing[] | null;
  declare redirectUri: string;

  constructor() {
    super();
    this.providers = null;
    this.redirectUri = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
  }

  async #load(): Promise<void> {
    const answer = await this.run(() => this.api!.request<SignInProvidersAnswer>('GET', '/admin/api/oidc-providers'));
    if (!answer) return;
    this.providers = answer.data;
    this.redirectUri = answer.redirect_uri;
  }

  #add = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const f = new FormData(form);
    const value = (name: string) => String(f.get(name) ?? '').trim();
    const body = {
      purpose: value('purpose'),
      name: value('name'),
      issuer: value('issuer'),
      client_id: value('client_id'),
      client_secret: String(f.get('client_secret') ?? ''),
      ...(value('scopes') ? { scopes: value('scopes') } : {}),
    };
    const created = await this.run(() => this.api!.request('POST', '/admin/api/oidc-providers', body), `Added ${body.name}.`, 'issuer');
    if (created) {
      form.reset();
      await this.#load();
    }
  };

  async #remove(p: SignInProviderListing): Promise<void> {
    if (!(await this.confirmAction(`Remove ${p.name}? Sign-ins in progress with it will fail.`, 'Remove'))) return;
    const removed = await this.run(() => this.api!.request('DELETE', `/admin/api/oidc-providers/${p.id}`), `Removed ${p.name}.`);
    if (removed) await this.#load();
  }

  override render() {
    return html`<h2 id="sign-in-providers">Sign-in providers</h2>
      <p>
        The OpenID Connect providers users sign in with in the Social Account step, and the payment provider of the Payment Account step. Register this redirect
        URI with each provider: <code>${this.redirectUri || '…'}</code>
      </p>
      ${
        this.providers === null
          ? html`<p>Loading…</p>`
          : this.providers.length === 0
            ? html`<p class="muted">No provider yet.</p>`
            : html`<ul aria-labelledby="sign-in-providers">
                ${this.providers.map(
                  (p) =>
                    html`<li>
                      <strong>${p.name}</strong> (${PURPOSES[p.purpose]}) — <code>${p.issuer}</code>, client <code>${p.client_id}</code>, scopes
                      <code>${p.scopes}</code>
                      <button type="button" class="danger" aria-label=${`Remove ${p.name}`} @click=${() => void this.#remove(p)}>Remove</button>
                    </li>`,
                )}
              </ul>`
      }
      <form aria-label="Add a sign-in provider" @submit=${this.#add}>
        <label
          >For
          <select name="purpose">
            <option value="social">Social Account</option>
            <option value="payment">Payment Account</option>
          </select></label
        >
        <label>Name users see <input name="name" required maxlength="60" placeholder="Google" /></label>
        <label>Issuer URL <input name="issuer" required type="url" placeholder="https://accounts.google.com" /></label>
        <label>Client id <input name="client_id" required autocomplete="off" /></label>
        <label>Client secret (stored sealed, never shown again) <input name="client_secret" required type="password" autocomplete="new-password" /></label>
        <label>Scopes <input name="scopes" placeholder="openid email" autocomplete="off" /></label>
        <div><button type="submit">Add provider</button></div>
      </form>
      ${this.feedback()}`;
  }
}

if (!customElements.get('admin-sign-in-providers')) customElements.define('admin-sign-in-providers', AdminSignInProviders);

declare global {
  interface HTMLElementTagNameMap {
    'admin-sign-in-providers': AdminSignInProviders;
  }
}
