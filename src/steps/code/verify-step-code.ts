import { VerifyStepCode } from './verify-step-code.component.js';

/** `<verify-step-email>`: the e-mail code step. */
export class VerifyStepEmail extends VerifyStepCode {}
/** `<verify-step-phone>`: the SMS code step. */
export class VerifyStepPhone extends VerifyStepCode {}

if (!customElements.get('verify-step-email')) customElements.define('verify-step-email', VerifyStepEmail);
if (!customElements.get('verify-step-phone')) customElements.define('verify-step-phone', VerifyStepPhone);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-email': VerifyStepEmail;
    'verify-step-phone': VerifyStepPhone;
  }
}
