import { html, nothing } from 'lit';
import { AdminApiError } from '../api.js';
import { AdminView } from './admin-view.js';
import type { SignedIn } from '../../api/admin/session.js';

/** Fired when sign-in succeeded. */
export class SignedInEvent extends Event {
  constructor(readonly admin: { id: number; email: string }) {
    super('signed-in');
  }
}

/** The sign-in form: e-mail and password, then the authenticator code when the admin has TOTP on. */
export class AdminSignIn extends AdminView {
  static override properties = { ...AdminView.properties, needsCode: { state: true } };
  declare needsCode: boolean;

  constructor() {
    super();
    this.needsCode = false;
  }

  async #submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const body: Record<string, string> = { email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') };
    const code = data.get('totp');
    if (code) body.totp = String(code);
    this.error = '';
    try {
      const res = await this.client.post<SignedIn>('/admin/api/session', body);
      this.dispatchEvent(new SignedInEvent(res.admin));
    } catch (error: unknown) {
      if (error instanceof AdminApiError && error.errors.totp) {
        this.needsCode = true;
        this.error = body.totp ? 'The code is not right.' : 'Enter the code from your authenticator app.';
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLInputElement>('input[name=totp]')?.focus();
        return;
      }
      this.error = error instanceof AdminApiError ? error.error_message : 'Sign-in failed.';
    }
  }

  override render() {
    return html`<h1>Sign in to Verity</h1>
      <form @submit=${this.#submit}>
        <label>E-mail <input name="email" type="email" autocomplete="username" required /></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required /></label>
        ${
          this.needsCode
            ? html`<label>Authenticator code <input name="totp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required /></label>`
            : nothing
        }
        <div><button type="submit">Sign in</button></div>
      </form>
      ${this.feedback()}`;
  }
}

if (!customElements.get('admin-sign-in')) customElements.define('admin-sign-in', AdminSignIn);

declare global {
  interface HTMLElementTagNameMap {
    'admin-sign-in': AdminSignIn;
  }
  interface HTMLElementEventMap {
    'signed-in': SignedInEvent;
  }
}
