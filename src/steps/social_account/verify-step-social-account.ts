import { VerifyStepSocialAccount } from './verify-step-social-account.component.js';

export { VerifyStepSocialAccount };

if (!customElements.get('verify-step-social-account')) customElements.define('verify-step-social-account', VerifyStepSocialAccount);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-social-account': VerifyStepSocialAccount;
  }
}
