import { VerifyStepPaymentAccount } from './verify-step-payment-account.component.js';

export { VerifyStepPaymentAccount };

if (!customElements.get('verify-step-payment-account')) customElements.define('verify-step-payment-account', VerifyStepPaymentAccount);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-payment-account': VerifyStepPaymentAccount;
  }
}
