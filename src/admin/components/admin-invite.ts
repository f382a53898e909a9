import { html } from 'lit';
import { AdminView } from './admin-view.js';

/** Accepting an admin invitation (`/admin/invite#<token>`): choose a password, then sign in. */
export class AdminInvite extends AdminView {
  static override properties = { ...AdminView.properties, accepted: { state: true } };
  declare accepted: boolean;

  constructor() {
    super();
    this.accepted = false;
  }

  async #submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    const password = String(f.get('password'));
    if (password !== String(f.get('again'))) {
      this.error = 'The two passwords differ.';
      return;
    }
    const token = location.hash.slice(1);
    const ok = await this.run(
      () => this.client.post('/admin/api/invites/accept', { token, password }),
      'Your admin account is ready. You can sign in now.',
      'password',
    );
    if (ok) {
      this.accepted = true;
      history.replaceState(null, '', '/admin');
    }
  }

  override render() {
    return html`<h1 tabindex="-1">Join the Verity dashboard</h1>
      ${
        this.accepted
          ? html`<p><a href="/admin">Sign in</a></p>`
          : html`<form @submit=${this.#submit}>
              <label>New password (at least 12 characters) <input name="password" type="password" minlength="12" autocomplete="new-password" required /></label>
              <label>The same password again <input name="again" type="password" minlength="12" autocomplete="new-password" required /></label>
              <div><button type="submit">Create my admin account</button></div>
            </form>`
      }
      ${this.feedback()}`;
  }
}

if (!customElements.get('admin-invite')) customElements.define('admin-invite', AdminInvite);

declare global {
  interface HTMLElementTagNameMap {
    'admin-invite': AdminInvite;
  }
}
