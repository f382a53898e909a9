import { VerifyStepBank } from './verify-step-bank.component.js';

export { VerifyStepBank };

if (!customElements.get('verify-step-bank')) customElements.define('verify-step-bank', VerifyStepBank);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-bank': VerifyStepBank;
  }
}
