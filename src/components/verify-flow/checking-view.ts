import { msg } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { MethodView } from '../../api/contract.js';
import { rejectionText, stepTitle } from '../../steps/registry.js';

/**
 * The "being checked" screen (issue 22): everything is sent and the flow waits for the analysis of
 * what was sent last before completing. When the analysis refuses it, the same screen shows the
 * step, the reason in the user's words, the retry when the server allows one, and the other ways
 * forward (another device, or the company contacting them).
 */
export function renderChecking(view: {
  refused: MethodView | null;
  handoff: boolean;
  onRetry: (method: MethodView) => void;
  onHandoff: () => void;
}): TemplateResult {
  const { refused } = view;
  if (!refused) {
    return html`<section part="result" class="result checking" aria-busy="true">
      <span class="spinner" aria-hidden="true"></span>
      <h2 id="checking-title" tabindex="-1">${msg('Checking what you sent', { id: 'flow.checking.title' })}</h2>
      <p role="status">${msg('This usually takes a few seconds. Please keep this page open.', { id: 'flow.checking.body' })}</p>
    </section>`;
  }
  return html`<section part="result" class="result failed checking">
    <h2 id="checking-title" tabindex="-1">${msg('A step was not accepted', { id: 'flow.checking.refused' })}</h2>
    <div class="notice refusal" role="alert">
      <p><strong>${stepTitle(refused)}</strong>: ${rejectionText(refused) ?? msg('What you sent could not be accepted.', { id: 'flow.refused.default' })}</p>
    </div>
    <div class="actions">
      ${
        refused.can_retry
          ? html`<button type="button" @click=${() => view.onRetry(refused)}>${msg('Do this step again', { id: 'flow.refused.retry' })}</button>`
          : html`<p class="muted">${msg('The service will contact you about this step.', { id: 'flow.step-rejected-final' })}</p>`
      }
      ${
        view.handoff
          ? html`<button type="button" class="secondary" @click=${view.onHandoff}>${msg('Continue on another device', { id: 'flow.handoff.offer' })}</button>`
          : nothing
      }
    </div>
    <p class="muted">${msg('You can also contact the company that sent you this link.', { id: 'flow.checking.contact' })}</p>
  </section>`;
}
