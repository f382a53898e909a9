import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { SignInStatus } from '../../api/contract.js';
import { localizeKnown, messageTable } from '../../internal/message-table.js';
import type { SignInController } from './sign-in-controller.js';

/** Why a sign-in proved nothing, in words for the user, by how it ended. */
export const SIGN_IN_PROBLEMS = messageTable<Exclude<SignInStatus, 'none' | 'pending' | 'done'>>('signin', {
  cancelled: 'The sign-in was cancelled. You can try again.',
  provider_error: 'The provider could not sign you in. Try again, or try later.',
  invalid_response: 'We could not check the answer from the provider. Please try again.',
  expired: 'The sign-in took too long. Please start again.',
});

/** Why the last sign-in proved nothing, in words for the user; empty when there is nothing to say. */
export const signInProblem = (status: SignInStatus | 'none'): string => localizeKnown(SIGN_IN_PROBLEMS, status) ?? '';

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
