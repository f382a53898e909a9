import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { SessionView } from '../../api/contract.js';
import type { VerifyError } from '../../events/events.js';
import { failureText } from './failure-text.js';

export function renderLoading(): TemplateResult {
  return html`<div class="loading" aria-busy="true"><span class="spinner" aria-hidden="true"></span>${msg('Loading…', { id: 'flow.loading' })}</div>`;
}

/** The "you are done" screen, with the countdown to the redirect when there is one to follow. */
export function renderDone(view: {
  redirectUrl: string | null;
  stay: boolean;
  secondsLeft: number | null;
  closable: boolean;
  onClose: () => void;
}): TemplateResult {
  const redirecting = view.redirectUrl && !view.stay;
  return html`<section part="result" class="result">
    <div class="check" aria-hidden="true">✓</div>
    <h2 id="result-title" tabindex="-1">${msg('Thank you, you are done', { id: 'flow.done.title' })}</h2>
    <p>${msg('We have received everything we need. You will hear from us when the checks are complete.', { id: 'flow.done.body' })}</p>
    ${
      redirecting && view.secondsLeft !== null
        ? html`<p class="muted" role="status">${msg(str`Taking you back in ${view.secondsLeft} s…`, { id: 'flow.done.redirecting-in' })}</p>`
        : nothing
    }
    ${view.redirectUrl ? html`<div class="actions"><a class="button" href=${view.redirectUrl}>${msg('Return to the site', { id: 'flow.done.return' })}</a></div>` : nothing}
    ${view.closable ? html`<div class="actions"><button type="button" @click=${view.onClose}>${msg('Close', { id: 'flow.close' })}</button></div>` : nothing}
  </section>`;
}

/** The phone's last screen after a hand-off: the computer finishes. */
export function renderHandedBack(): TemplateResult {
  return html`<section part="result" class="result">
    <h2 id="result-title" tabindex="-1">${msg('All done on this phone', { id: 'flow.handed-back.title' })}</h2>
    <p>${msg('You can go back to your computer to finish.', { id: 'flow.handed-back.body' })}</p>
  </section>`;
}

/**
 * What went wrong and the way on: try again when it can be retried; declining consent is left
 * cleanly (read it again, or close a modal / leave the page).
 */
export function renderFailure(view: { error: VerifyError | null; closable: boolean; onAgain: () => void; onClose: () => void }): TemplateResult {
  const { error } = view;
  const text = failureText(error?.code);
  return html`<section part="result" class="result failed" role="alert">
    <h2 id="failure-title" tabindex="-1">${text.title}</h2>
    <p>${text.body}</p>
    <div class="actions">
      ${error?.retryable ? html`<button type="button" @click=${view.onAgain}>${text.retry}</button>` : nothing}
      ${view.closable && error?.code === 'consent_declined' ? html`<button type="button" class="secondary" @click=${view.onClose}>${msg('Close', { id: 'flow.close' })}</button>` : nothing}
    </div>
  </section>`;
}

/** The hand-off screen: the QR code and link for the phone, and the way back to this device. */
export function renderHandoff(view: { onSession: (e: CustomEvent<SessionView>) => void; onBack: () => void }): TemplateResult {
  return html`<section>
    <h2 id="handoff-title" tabindex="-1">${msg('Continue on your phone', { id: 'flow.handoff.title' })}</h2>
    <verify-handoff @handoff-session=${view.onSession}></verify-handoff>
    <div class="actions">
      <button type="button" class="secondary" @click=${view.onBack}>${msg('Continue on this device', { id: 'flow.handoff.back' })}</button>
    </div>
  </section>`;
}
