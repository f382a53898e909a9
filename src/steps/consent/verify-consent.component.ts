import { ContextConsumer } from '@lit/context';
import { msg, updateWhenLocaleChanges } from '@lit/localize';
import { LitElement, css, html, nothing } from 'lit';
import type { ConsentView, SessionView } from '../../api/contract.js';
import { fromApiError } from '../../internal/errors.js';
import { flowContext } from '../../internal/flow-context.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { StepErrorEvent } from '../../internal/step-events.js';
import type { Capture } from './consent-captures.js';
import { agreeLabel, defaultConsentText } from './consent-texts.js';

/** The consent screen's answer to the flow: the session after the decision was recorded. */
export class ConsentDecisionEvent extends Event {
  static readonly eventName = 'consent-decision';
  constructor(
    readonly decision: 'given' | 'declined',
    readonly session: SessionView,
  ) {
    super(ConsentDecisionEvent.eventName, { bubbles: true, composed: false });
  }
}

/**
 * Consent before biometric steps (issue 24): the account's text (or the default one), its
 * privacy policy, a box to tick, and a way to leave. Records the decision with the server and
 * tells the flow with a non-composed {@link ConsentDecisionEvent}.
 */
export class VerifyConsent extends LitElement {
  static override styles = [
    sharedStyles,
    css`
      .text {
        white-space: pre-line;
      }
      .agree {
        display: flex;
        gap: 0.6rem;
        align-items: flex-start;
        margin-block: 1rem 0.5rem;
      }
      .agree input {
        inline-size: 1.35rem;
        block-size: 1.35rem;
        margin: 0.15rem 0 0;
        flex: none;
      }
    `,
  ];
  static override properties = { consent: { attribute: false }, captures: { attribute: false }, busy: { state: true }, error: { state: true } };

  /** The session's consent part (text, privacy URL, version). */
  declare consent: ConsentView | null;
  /** What the flow's biometric steps capture: the default text and the box name exactly these. */
  declare captures: readonly Capture[];
  declare private busy: boolean;
  declare private error: string;

  private readonly flow = new ContextConsumer(this, { context: flowContext, subscribe: true });

  constructor() {
    super();
    updateWhenLocaleChanges(this);
    this.consent = null;
    this.captures = [];
    this.busy = false;
    this.error = '';
  }

  /** Sends the decision; on success the flow receives {@link ConsentDecisionEvent}. */
  async decide(decision: 'given' | 'declined'): Promise<void> {
    const consent = this.consent;
    const client = this.flow.value?.client;
    if (!consent || !client || this.busy) return;
    const box = this.renderRoot.querySelector<HTMLInputElement>('#agree');
    if (decision === 'given' && !box?.checked) {
      this.error = msg('Tick the box to agree, or choose not to continue.', { id: 'consent.tick' });
      box?.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const session = await client.consent({ decision, text_version: consent.text_version });
      this.dispatchEvent(new ConsentDecisionEvent(decision, session));
    } catch (error: unknown) {
      const mapped = fromApiError(error);
      this.error = mapped.message;
      this.dispatchEvent(new StepErrorEvent(mapped));
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    const consent = this.consent;
    if (!consent) return nothing;
    return html`
      <p class="text" id="consent-text">${consent.text ?? defaultConsentText(this.captures)}</p>
      ${
        consent.privacy_url
          ? html`<p>
              <a href=${consent.privacy_url} target="_blank" rel="noopener noreferrer">
                ${msg('Read the privacy policy (opens in a new tab)', { id: 'consent.privacy' })}
              </a>
            </p>`
          : nothing
      }
      <div class="agree">
        <input id="agree" type="checkbox" aria-describedby="consent-text consent-error" @change=${() => (this.error = '')} />
        <label for="agree">${agreeLabel(this.captures)}</label>
      </div>
      <p id="consent-error" class="error" role="alert">${this.error}</p>
      <div class="actions">
        <button type="button" ?disabled=${this.busy} aria-busy=${this.busy ? 'true' : 'false'} @click=${() => void this.decide('given')}>
          ${msg('Agree and continue', { id: 'consent.give' })}
        </button>
        <button type="button" class="secondary" ?disabled=${this.busy} @click=${() => void this.decide('declined')}>
          ${msg('I do not agree', { id: 'consent.decline' })}
        </button>
      </div>
    `;
  }
}

declare global {
  interface HTMLElementEventMap {
    'consent-decision': ConsentDecisionEvent;
  }
}
