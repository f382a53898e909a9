import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import type { MethodResult, MethodViewOf, SignInStatus } from '../../api/contract.js';
import { ApiError, type SessionClient } from '../../api/session-client.js';
import { pluralMsg } from '../../internal/plural.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { SignInController, type SignInHost } from '../oidc/sign-in-controller.js';
import { signInProblem, waitingView } from '../oidc/sign-in-texts.js';
import { StepElement } from '../step-element.js';

type PaymentMethod = MethodViewOf<'payment_account'>;

/**
 * Payment Account: the user gives the payment account's e-mail and confirms the code sent there;
 * where the account configured a payment provider, the user then signs in with it (the same
 * sign-in as Social Account).
 */
export class VerifyStepPaymentAccount extends StepElement<PaymentMethod> implements SignInHost {
  static override styles = [sharedStyles];
  static override properties = {
    ...StepElement.properties,
    sent: { state: true },
    busy: { state: true },
    error: { state: true },
    secondsLeft: { state: true },
  };

  declare private sent: boolean;
  declare private busy: boolean;
  declare private error: string;
  declare private secondsLeft: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly signIn = new SignInController(this);

  constructor() {
    super();
    this.sent = false;
    this.busy = false;
    this.error = '';
    this.secondsLeft = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.method) return;
    this.sent = this.method.needs.code_sent;
    if (this.method.needs.resend_available_at) this.countdown(Date.parse(this.method.needs.resend_available_at));
    if (this.method.needs.email_verified) this.error = signInProblem(this.method.needs.sign_in);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  get signInClient(): SessionClient {
    return this.client;
  }

  signInFinished(result: MethodResult): void {
    this.complete(result);
  }

  signInFailed(status: SignInStatus, error?: unknown): void {
    this.error = error === undefined ? signInProblem(status) : this.report(error).message;
  }

  private countdown(at: number): void {
    const tick = (): void => {
      this.secondsLeft = Math.max(0, Math.ceil((at - Date.now()) / 1000));
      if (this.secondsLeft === 0 && this.timer !== undefined) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = setInterval(tick, 1000);
    tick();
  }

  private async send(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = this.renderRoot.querySelector<HTMLInputElement>('#payment-email')!;
    const email = input.value.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      this.error = msg('Enter the e-mail address of your payment account.', { id: 'payment.email-invalid' });
      input.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const sent = await this.client.sendPaymentCode(email);
      this.method = { ...this.method, needs: { ...this.method.needs, payment_email_masked: sent.destination_masked, code_sent: true } };
      this.sent = true;
      this.countdown(Date.parse(sent.resend_available_at));
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('#payment-code')?.focus();
    } catch (error: unknown) {
      if (error instanceof ApiError && error.error_type === 'api_rate_limit_error') {
        this.countdown(Date.now() + (error.details.retry_after_seconds ?? 30) * 1000);
        this.error = msg('Please wait before asking for another code.', { id: 'code.wait' });
      } else if (error instanceof ApiError && error.error_type === 'api_validation_error') {
        this.error = msg('Enter the e-mail address of your payment account.', { id: 'payment.email-invalid' });
      } else {
        this.error = this.report(error).message;
      }
    } finally {
      this.busy = false;
    }
  }

  private async verify(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = this.renderRoot.querySelector<HTMLInputElement>('#payment-code')!;
    const code = input.value.replace(/\D/g, '');
    if (code.length !== this.method.needs.code_length) {
      this.error = msg(str`Enter the ${this.method.needs.code_length}-digit code.`, { id: 'code.length' });
      input.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const result = await this.client.verifyPaymentCode(code);
      if (result.method.key === 'payment_account' && (result.method.status === 'assigned' || result.method.status === 'reset')) {
        // The code is confirmed; the sign-in with the payment provider is still to do.
        this.method = result.method;
      } else {
        this.complete(result);
      }
    } catch (error: unknown) {
      input.value = '';
      if (error instanceof ApiError && error.error_type === 'session_code_invalid') {
        const left = error.details.attempts_left ?? 0;
        this.error = pluralMsg(left, 'code.invalid', {
          one: str`That code is not right. ${left} try left.`,
          other: str`That code is not right. ${left} tries left.`,
        });
      } else if (error instanceof ApiError && (error.error_type === 'session_code_expired' || error.error_type === 'session_attempts_exceeded')) {
        this.sent = false;
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

  private renderEmailForm() {
    return html`
      <p>${msg('We send a code to the e-mail address of your payment account to confirm it is yours.', { id: 'payment.intro' })}</p>
      <form @submit=${(e: SubmitEvent) => void this.send(e)} novalidate>
        <div class="field">
          <label for="payment-email">${msg('Payment account e-mail', { id: 'payment.email-label' })}</label>
          <input
            id="payment-email"
            type="email"
            autocomplete="email"
            maxlength="254"
            aria-invalid=${this.error ? 'true' : 'false'}
            aria-describedby="payment-error"
          />
          <p id="payment-error" class="error" role="alert">${this.error}</p>
        </div>
        <div class="actions">
          <button type="submit" ?disabled=${this.busy || this.secondsLeft > 0}>
            ${this.secondsLeft > 0 ? msg(str`Send again in ${this.secondsLeft} s`, { id: 'code.resend-wait' }) : msg('Send code', { id: 'code.send' })}
          </button>
        </div>
      </form>
    `;
  }

  private renderCodeForm() {
    const destination = this.method.needs.payment_email_masked ?? '';
    return html`
      <p>${msg(str`Enter the code we sent to ${destination}.`, { id: 'code.sent' })}</p>
      <form @submit=${(e: SubmitEvent) => void this.verify(e)} novalidate>
        <div class="field">
          <label for="payment-code">${msg('Code', { id: 'code.label' })}</label>
          <input
            id="payment-code"
            inputmode="numeric"
            autocomplete="one-time-code"
            pattern="[0-9]*"
            maxlength=${this.method.needs.code_length}
            aria-invalid=${this.error ? 'true' : 'false'}
            aria-describedby="payment-error"
          />
          <p id="payment-error" class="error" role="alert">${this.error}</p>
        </div>
        <div class="actions">
          <button type="submit" ?disabled=${this.busy}>${msg('Confirm', { id: 'code.confirm' })}</button>
          <button type="button" class="secondary" ?disabled=${this.busy} @click=${() => (this.sent = false)}>
            ${msg('Use another address', { id: 'payment.other-address' })}
          </button>
        </div>
      </form>
    `;
  }

  private renderSignIn() {
    const { provider, payment_email_masked: email, sign_ins_left: left } = this.method.needs;
    if (!provider) return nothing;
    if (this.signIn.phase === 'waiting') return waitingView(this.signIn, provider.name, () => void this.signIn.cancel('payment_account'));
    return html`
      <p>${msg(str`${email ?? ''} is confirmed. Now sign in to your ${provider.name} account to show that you control it.`, { id: 'payment.sign-in' })}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${left === 0 ? html`<p class="error" role="alert">${msg('Too many sign-ins in the last hour. Please try again later.', { id: 'signin.limit' })}</p>` : nothing}
      <div class="actions">
        <button type="button" ?disabled=${this.signIn.phase !== 'idle' || left === 0} @click=${() => this.startSignIn(provider.id)}>
          ${msg(str`Continue with ${provider.name}`, { id: 'signin.continue' })}
        </button>
      </div>
    `;
  }

  private startSignIn(providerId: number): void {
    this.error = '';
    void this.signIn.start('payment_account', providerId);
  }

  protected override render() {
    if (this.method.needs.email_verified) return this.renderSignIn();
    return this.sent ? this.renderCodeForm() : this.renderEmailForm();
  }
}
