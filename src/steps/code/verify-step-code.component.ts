import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import type { MethodViewOf } from '../../api/contract.js';
import { codeField, confirmButton, resendLabel, sendRefusal, type CodeRefusal } from './code-entry.js';
import { CodeStepElement } from './code-step-element.js';
import { states } from '../../internal/lit-states.js';

type CodeMethod = MethodViewOf<'email'> | MethodViewOf<'phone'>;

/**
 * E-mail or SMS code: send, enter (one-time-code autocomplete), resend with a countdown.
 * Registered twice: `verify-step-email` and `verify-step-phone` (see `verify-step-code.ts`).
 */
export class VerifyStepCode extends CodeStepElement<CodeMethod> {
  static override properties = {
    ...CodeStepElement.properties,
    ...states('attemptsLeft', 'mustResend'),
  };

  declare private attemptsLeft: number;
  declare private mustResend: boolean;

  constructor() {
    super();
    this.attemptsLeft = 5;
    this.mustResend = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.method) {
      this.sent = this.method.needs.code_sent;
      this.attemptsLeft = this.method.needs.attempts_left;
      if (this.method.needs.resend_available_at) this.countdown.start(Date.parse(this.method.needs.resend_available_at));
    }
  }

  /** Sends (or re-sends) the code. */
  async send(): Promise<void> {
    if (this.busy || this.countdown.secondsLeft > 0) return;
    this.busy = true;
    this.error = '';
    try {
      const sent = await this.client.sendCode(this.method.key);
      this.sent = true;
      this.mustResend = false;
      this.attemptsLeft = sent.attempts_left;
      this.countdown.start(Date.parse(sent.resend_available_at));
      await this.updateComplete;
      this.renderRoot.querySelector('input')?.focus();
    } catch (error: unknown) {
      this.error = sendRefusal(error, this.countdown) ?? this.report(error).message;
    } finally {
      this.busy = false;
    }
  }

  private verify(event: SubmitEvent): Promise<void> {
    const input = this.renderRoot.querySelector('input')!;
    return this.submitCode(event, input, this.method.needs.code_length, this.attemptsLeft - 1, async (code) => {
      this.complete(await this.client.verifyCode(this.method.key, code));
    });
  }

  protected override codeRefused(refusal: CodeRefusal): void {
    this.attemptsLeft = refusal.attemptsLeft ?? this.attemptsLeft;
    this.mustResend = refusal.mustResend;
  }

  protected override render() {
    const destination = this.method.needs.destination_masked;
    const isEmail = this.method.key === 'email';
    const waiting = this.countdown.secondsLeft;
    if (!this.sent) {
      return html`
        <p>
          ${
            isEmail
              ? msg(str`We will send a code to ${destination}.`, { id: 'code.intro-email' })
              : msg(str`We will text a code to ${destination}.`, { id: 'code.intro-phone' })
          }
        </p>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <div class="actions">
          <button type="button" ?disabled=${this.busy || waiting > 0} @click=${() => void this.send()}>${msg('Send code', { id: 'code.send' })}</button>
        </div>
      `;
    }
    return html`
      <p>${msg(str`Enter the code we sent to ${destination}.`, { id: 'code.sent' })}</p>
      <form @submit=${(e: SubmitEvent) => void this.verify(e)} novalidate>
        ${codeField({ id: 'code', name: 'code', errorId: 'code-error', length: this.method.needs.code_length, error: this.error, disabled: this.mustResend })}
        <div class="actions">
          ${confirmButton(this.busy || this.mustResend)}
          <button type="button" class="secondary" ?disabled=${this.busy || waiting > 0} @click=${() => void this.send()}>
            ${resendLabel(waiting, msg('Send a new code', { id: 'code.resend' }))}
          </button>
        </div>
      </form>
    `;
  }
}
