import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import type { MethodViewOf } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import { codeField, confirmButton, resendLabel, sendRefusal, type CodeRefusal } from '../code/code-entry.js';
import { CodeStepElement } from '../code/code-step-element.js';
import { SignInController } from '../oidc/sign-in-controller.js';
import { signInProblem, waitingView } from '../oidc/sign-in-texts.js';

type PaymentMethod = MethodViewOf<'payment_account'>;

/**
 * Payment Account: the user gives the payment account's e-mail and confirms the code sent there;
 * where the account configured a payment provider, the user then signs in with it (the same
 * sign-in as Social Account).
 */
export class VerifyStepPaymentAccount extends CodeStepElement<PaymentMethod> {
  private readonly signIn = new SignInController(this, {
    client: () => this.client,
    finished: (result) => this.complete(result),
    report: (error) => this.report(error).message,
    failed: (problem) => (this.error = problem),
  });

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.method) return;
    this.sent = this.method.needs.code_sent;
    if (this.method.needs.resend_available_at) this.countdown.start(Date.parse(this.method.needs.resend_available_at));
    if (this.method.needs.email_verified) this.error = signInProblem(this.method.needs.sign_in);
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
      this.countdown.start(Date.parse(sent.resend_available_at));
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('#payment-code')?.focus();
    } catch (error: unknown) {
      const invalidEmail = error instanceof ApiError && error.error_type === 'api_validation_error';
      this.error =
        sendRefusal(error, this.countdown) ??
        (invalidEmail ? msg('Enter the e-mail address of your payment account.', { id: 'payment.email-invalid' }) : this.report(error).message);
    } finally {
      this.busy = false;
    }
  }

  private verify(event: SubmitEvent): Promise<void> {
    const input = this.renderRoot.querySelector<HTMLInputElement>('#payment-code')!;
    return this.submitCode(event, input, this.method.needs.code_length, 0, async (code) => {
      const result = await this.client.verifyPaymentCode(code);
      if (result.method.key === 'payment_account' && (result.method.status === 'assigned' || result.method.status === 'reset')) {
        // The code is confirmed; the sign-in with the payment provider is still to do.
        this.method = result.method;
      } else {
        this.complete(result);
      }
    });
  }

  protected override codeRefused(refusal: CodeRefusal): void {
    // Only a new code can go on: back to the e-mail form to send one.
    if (refusal.mustResend) this.sent = false;
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
          <button type="submit" ?disabled=${this.busy || this.countdown.secondsLeft > 0}>
            ${resendLabel(this.countdown.secondsLeft, msg('Send code', { id: 'code.send' }))}
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
        ${codeField({ id: 'payment-code', errorId: 'payment-error', length: this.method.needs.code_length, error: this.error })}
        <div class="actions">
          ${confirmButton(this.busy)}
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
