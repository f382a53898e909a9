import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { SignInStatus } from '../../api/contract.js';
import type { SignInController } from './sign-in-controller.js';

/** Why the last sign-in proved nothing, in words for the user; empty when there is nothing to say. */
export function signInProblem(status: SignInStatus | 'none'): string {
  switch (status) {
    case 'cancelled':
      return msg('The sign-in was cancelled. You can try again.', { id: 'signin.cancelled' });
    case 'provider_error':
      return msg('The provider could not sign you in. Try again, or try later.', { id: 'signin.provider-error' });
    case 'invalid_response':
      return msg('We could not check the answer from the provider. Please try again.', { id: 'signin.invalid' });
    case 'expired':
      return msg('The sign-in took too long. Please start again.', { id: 'signin.expired' });
    default:
      return '';
  }
}

/** What the step shows while the user signs in at the provider: where to look, a link when the window was blocked, Cancel. */
export function waitingView(signIn: SignInController, provider: string, onCancel: () => void): TemplateResult {
  return html`
    <p role="status">
      ${
        signIn.blocked
          ? msg(str`Your browser blocked the sign-in window. Open the ${provider} sign-in with the link below.`, { id: 'signin.blocked' })
          : msg(str`Finish signing in with ${provider} in the window that opened. This page continues by itself.`, { id: 'signin.waiting' })
      }
    </p>
    ${
      signIn.windowClosed && !signIn.blocked
        ? html`<p class="muted">${msg('The sign-in window was closed. Open it again, or cancel and start over.', { id: 'signin.window-closed' })}</p>`
        : nothing
    }
    <div class="actions">
      ${
        signIn.url && (signIn.blocked || signIn.windowClosed)
          ? html`<a class="button" href=${signIn.url} target="_blank">${msg(str`Open the ${provider} sign-in`, { id: 'signin.open' })}</a>`
          : nothing
      }
      <button type="button" class="secondary" @click=${onCancel}>${msg('Cancel sign-in', { id: 'signin.cancel' })}</button>
    </div>
  `;
}
