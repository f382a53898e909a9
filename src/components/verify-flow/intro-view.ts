import { msg } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { Branding, MethodKey } from '../../api/contract.js';
import { stepFor } from '../../steps/registry.js';

/** The account's logo (or name) above the flow: it says who is asking, inline as on the hosted page. */
export function renderHeader(branding: Branding | null): TemplateResult | typeof nothing {
  if (!branding) return nothing;
  const logo = branding.logo_url ? html`<img class="logo" src=${branding.logo_url} alt=${branding.account_name} />` : nothing;
  return html`<header part="header">${logo}<span class="account">${logo === nothing ? branding.account_name : ''}</span></header>`;
}

/** What this user will do and what to have at hand, when the steps are known. */
function renderPlan(steps: readonly MethodKey[] | null): TemplateResult {
  const minutes = msg('It takes a few minutes.', { id: 'flow.intro.minutes' });
  if (!steps?.length) return html`<p>${minutes} ${msg('Allow camera access if a step asks for it.', { id: 'flow.intro.generic' })}</p>`;
  const has = (...keys: MethodKey[]) => keys.some((k) => steps.includes(k));
  const ready = [
    has('document_id') ? msg('your ID document', { id: 'flow.intro.ready.document' }) : null,
    has('secure_card') ? msg('your payment card', { id: 'flow.intro.ready.card' }) : null,
    has('email') ? msg('your e-mail, to receive a code', { id: 'flow.intro.ready.email' }) : null,
    has('phone') ? msg('your phone, to receive a code', { id: 'flow.intro.ready.phone' }) : null,
    has('document_id', 'selfie', 'liveness', 'secure_card') ? msg('a camera (allow access when asked)', { id: 'flow.intro.ready.camera' }) : null,
  ].filter((x): x is string => x !== null);
  return html`<p>${minutes} ${msg('You will be asked to:', { id: 'flow.intro.steps' })}</p>
    <ol class="plan">
      ${steps.map((k) => html`<li>${stepFor(k)?.title() ?? k}</li>`)}
    </ol>
    ${
      ready.length
        ? html`<p>${msg('Have ready:', { id: 'flow.intro.ready' })}</p>
            <ul class="plan">
              ${ready.map((r) => html`<li>${r}</li>`)}
            </ul>`
        : nothing
    }`;
}

/** The first screen: what the flow is, what it will ask, and Start. */
export function renderIntro(view: { plannedSteps: readonly MethodKey[] | null; preview: boolean; notice: string; onStart: () => void }): TemplateResult {
  return html`<section class="intro">
    <h2>${msg('Verify your identity', { id: 'flow.intro.title' })}</h2>
    ${renderPlan(view.plannedSteps)}
    <p class="muted">${msg('Your information is sent securely and used only to verify you.', { id: 'flow.intro.privacy' })}</p>
    <div class="actions"><button type="button" @click=${view.onStart}>${msg('Start', { id: 'flow.start' })}</button></div>
    ${view.preview ? html`<p class="muted" role="status">${view.notice}</p>` : nothing}
  </section>`;
}
