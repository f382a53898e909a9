import { msg } from '@lit/localize';
import { html, type TemplateResult } from 'lit';
import type { MethodView } from '../../api/contract.js';
import { rejectionText, stepTitle } from '../../steps/registry.js';

/**
 * The alert shown, on whatever screen the flow is, when the server refuses something the user
 * sent earlier (its analysis rejected it, issue 24), with the way back to that step.
 */
export function renderLiveRefusal(method: MethodView, goToStep: () => void): TemplateResult {
  return html`<div class="notice refusal" role="alert">
    <p><strong>${stepTitle(method)}</strong>: ${rejectionText(method) ?? msg('What you sent could not be accepted.', { id: 'flow.refused.default' })}</p>
    <button type="button" class="secondary" @click=${goToStep}>
      ${method.can_retry ? msg('Do this step again', { id: 'flow.refused.retry' }) : msg('See this step', { id: 'flow.refused.see' })}
    </button>
  </div>`;
}
