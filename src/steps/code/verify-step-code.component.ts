import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import type { MethodViewOf } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import { pluralMsg } from '../../internal/plural.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { StepElement } from '../step-element.js';

type CodeMethod = MethodViewOf<'email'> | MethodViewOf<'phone'>;

/**
 * E-mail or SMS code: send, enter (one-time-code autocomplete), resend with a countdown.
 * Registered twice: `verify-step-email` and `verify-step-phone` (see `verify-step-code.ts`).
 */
export class VerifyStepCode extends StepElement<CodeMethod> {
  static override styles = [sharedStyles];
  static override properties = {
    ...StepElement.properties,
    sent: { state: true },
    busy: { state: true },
    error: { state: true },
    attemptsLeft: { state: true },
    secondsLeft: { state: true },
    mustResend: { state: true },
  };

  declare private sent: boolean;
  declare private busy: boolean;
  declare private error: string;
  declare private attemptsLeft: number;
  declare private secondsLeft: number;
  declare private mustResend: boolean;
  private resendAt = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.sent = false;
    this.busy = false;
    this.error = '';
    this.attemptsLeft = 5;
    this.secondsLeft = 0;
    this.mustResend = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.method) {
      this.sent = this.method.needs.code_sent;
      this.attemptsLeft = this.method.needs.attempts_left;
      if (this.method.needs.resend_available_at) this.startCountdown(Date.parse(this.method.needs.resend_available_at));
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  private startCountdown(at: number): void {
    this.resendAt = at;
    const tick = (): void => {
      this.secondsLeft = Math.max(0, Math.ceil((this.resendAt - Date.now()) / 1000));
      if (this.secondsLeft === 0 && this.timer !== undefined) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = setInterval(tick, 1000);
    tick();
  }

  /** Sends (or re-sends) the code. */
  async send(): Promise<void> {
    if (this.busy || this.secondsLeft > 0) return;
    this.busy = true;
    this.error = '';
    try {
      const sent = await this.client.sendCode(this.method.key);
      this.sent = true;
      this.mustResend = false;
      this.attemptsLeft = sent.attempts_left;
      this.startCountdown(Date.parse(sent.resend_available_at));
      await this.updateComplete;
      this.renderRoot.querySelector('input')?.focus();
    } catch (error: unknown) {
      if (error instanceof ApiError && error.error_type === 'api_rate_limit_error') {
        this.startCountdown(Date.now() + (error.details.retry_after_seconds ?? 30) * 1000);
        this.error = msg('Please wait before asking for another code.', { id: 'code.wait' });
      } else {
        this.error = this.report(error).message;
      }
    } finally {
      this.busy = false;
    }
  }

  private async verify(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = this.renderRoot.querySelector('input')!;
    const code = input.value.replace(/\D/g, '');
    if (code.length !== this.method.needs.code_length) {
      this.error = msg(str`Enter the ${this.method.needs.code_length}-digit code.`, { id: 'code.length' });
      input.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      this.complete(await this.client.verifyCode(this.method.key, code));
    } catch (error: unknown) {
      input.value = '';
      if (error instanceof ApiError && error.error_type === 'session_code_invalid') {
        this.attemptsLeft = error.details.attempts_left ?? this.attemptsLeft - 1;
        const left = this.attemptsLeft;
        this.error = pluralMsg(left, 'code.invalid', {
          one: str`That code is not right. ${left} try left.`,
          other: str`That code is not right. ${left} tries left.`,
        });
      } else if (error instanceof ApiError && (error.error_type === 'session_code_expired' || error.error_type === 'session_attempts_exceeded')) {
        this.mustResend = true;
        this.error =
          error.error_type === 'session_code_expired'
            ? msg('That code has expired. Send a new one.', { id: 'code.expired' })
            : msg('Too many wrong tries. Send a new code.', { id: 'code.exceeded' });
      } else {
        this.error = this.report(error).message;
      }
      input.focus();
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    const destination = this.method.needs.destination_masked;
    const isEmail = this.method.key === 'email';
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
          <button type="button" ?disabled=${this.busy || this.secondsLeft > 0} @click=${() => void this.send()}>
            ${msg('Send code', { id: 'code.send' })}
          </button>
        </div>
      `;
    }
    return html`
      <p>${msg(str`Enter the code we sent to ${destination}.`, { id: 'code.sent' })}</p>
      <form @submit=${(e: SubmitEvent) => void this.verify(e)} novalidate>
        <div class="field">
          <label for="code">${msg('Code', { id: 'code.label' })}</label>
          <input
            id="code"
            name="code"
            inputmode="numeric"
            autocomplete="one-time-code"
            pattern="[0-9]*"
            maxlength=${this.method.needs.code_length}
            aria-invalid=${this.error ? 'true' : 'false'}
            aria-describedby="code-error"
            ?disabled=${this.mustResend}
          />
          <p id="code-error" class="error" role="alert">${this.error}</p>
        </div>
        <div class="actions">
          <button type="submit" ?disabled=${this.busy || this.mustResend}>${msg('Confirm', { id: 'code.confirm' })}</button>
          <button type="button" class="secondary" ?disabled=${this.busy || this.secondsLeft > 0} @click=${() => void this.send()}>
            ${this.secondsLeft > 0 ? msg(str`Send again in ${this.secondsLeft} s`, { id: 'code.resend-wait' }) : msg('Send a new code', { id: 'code.resend' })}
          </button>
        </div>
      </form>
    `;
  }
}
