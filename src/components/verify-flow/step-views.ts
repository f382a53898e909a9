import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { MethodView, SessionView } from '../../api/contract.js';
import { capturesOf, consentTitle } from '../../steps/consent/consent-captures.js';
import type { ConsentDecisionEvent } from '../../steps/consent/verify-consent.component.js';
import { rejectionText, stepFor, stepTitle } from '../../steps/registry.js';
import { FLOW_PHASE, isMethodDone, type FlowPhase } from './flow-phase.js';
import { renderLiveRefusal } from './live-refusal.js';

/** A step the server refused: its reason, and a retry when the server allows one. */
export function renderRejected(method: MethodView, onRetry: () => void): TemplateResult {
  return html`<div class="notice" role="alert">
      <p>${rejectionText(method) ?? msg('This step could not be verified.', { id: 'flow.step-rejected' })}</p>
    </div>
    <div class="actions">
      ${
        method.can_retry
          ? html`<button type="button" @click=${onRetry}>${msg('Try this step again', { id: 'flow.step-retry' })}</button>`
          : html`<p class="muted">${msg('The service will contact you about this step.', { id: 'flow.step-rejected-final' })}</p>`
      }
    </div>`;
}

/** A step already sent: being checked, or done; Continue to the next open one. */
export function renderStepDone(method: MethodView | null, nextOpen: number, onContinue: () => void): TemplateResult {
  const checking = method?.status === 'processing';
  return html`<p class="notice">
      ${checking ? msg('Sent. It is being checked; if it is not accepted, you will see it here.', { id: 'flow.step-checking' }) : msg('This step is done.', { id: 'flow.step-done' })}
    </p>
    <div class="actions">
      ${nextOpen >= 0 ? html`<button type="button" @click=${onContinue}>${msg('Continue', { id: 'flow.continue' })}</button>` : nothing}
    </div>`;
}

/** The method's own step element, from the registry. */
export function renderStep(method: MethodView): TemplateResult {
  return (
    stepFor(method.key)?.render(method) ??
    html`<p class="notice">${msg('This step cannot be done on this page. The service will contact you about it.', { id: 'flow.step-other' })}</p>`
  );
}

/** The steps screen: a live refusal, "Step n of m" with its bar, the step (or its consent), Back and hand-off. */
export function renderStepsScreen(view: {
  session: SessionView;
  index: number;
  consent: boolean;
  refused: MethodView | null;
  body: () => TemplateResult;
  onGo: (index: number) => void;
  onConsent: (event: ConsentDecisionEvent) => void;
  onHandoff: () => void;
  /** The step shows its own hand-off button: the link is left out (one way, not two). */
  stepOffersHandoff: boolean;
}): TemplateResult {
  const { session, index, refused } = view;
  const method = session.methods[index]!;
  const total = session.methods.length;
  const refusedAt = refused ? session.methods.findIndex((m) => m.key === refused.key) : -1;
  // The consent names what the steps still to do capture (camera, microphone, which things).
  const captures = view.consent ? capturesOf(session.methods.filter((m) => !isMethodDone(m)).map((m) => m.key)) : [];
  return html`
    ${refused ? renderLiveRefusal(refused, () => view.onGo(refusedAt)) : nothing}
    <div part="progress" class="progress">
      <span>${msg(str`Step ${index + 1} of ${total}`, { id: 'flow.progress' })}</span>
      <div
        class="bar"
        role="progressbar"
        aria-label=${msg('Progress', { id: 'flow.progress-label' })}
        aria-valuemin="0"
        aria-valuemax=${total}
        aria-valuenow=${session.methods.filter(isMethodDone).length}
      >
        <div class="fill"></div>
      </div>
    </div>
    <section part="step" class="step" aria-labelledby="step-title">
      ${
        view.consent
          ? html`<h2 id="step-title" tabindex="-1">${consentTitle(captures)}</h2>
              <verify-consent .consent=${session.consent} .captures=${captures} @consent-decision=${view.onConsent}></verify-consent>`
          : html`<h2 id="step-title" tabindex="-1">${stepTitle(method)}</h2>
              ${view.body()}`
      }
    </section>
    <nav class="nav" aria-label=${msg('Steps', { id: 'flow.nav' })}>
      ${index > 0 ? html`<button type="button" class="secondary" @click=${() => view.onGo(index - 1)}>${msg('Back', { id: 'flow.back' })}</button>` : nothing}
      ${
        session.handoff_enabled && !session.via_handoff && !view.stepOffersHandoff
          ? html`<button type="button" class="link" @click=${view.onHandoff}>${msg('Continue on another device', { id: 'flow.handoff.offer' })}</button>`
          : nothing
      }
    </nav>
  `;
}

/** What the flow's live region says: the step on screen ("Step 2 of 3: …"), or that it is loading. */
export function liveAnnouncement(phase: FlowPhase, index: number, session: SessionView | null, method: MethodView | null): string {
  if ((phase === FLOW_PHASE.steps || phase === FLOW_PHASE.consent) && session && method) {
    return msg(str`Step ${index + 1} of ${session.methods.length}: ${stepTitle(method)}`, { id: 'flow.live-step' });
  }
  if (phase === FLOW_PHASE.starting || phase === FLOW_PHASE.completing) return msg('Loading…', { id: 'flow.loading' });
  return '';
}
