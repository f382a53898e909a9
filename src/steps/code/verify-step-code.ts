import { defineElements } from '../../internal/define-elements.js';
import { VerifyStepCode } from './verify-step-code.component.js';

/** `<verify-step-email>`: the e-mail code step. */
export class VerifyStepEmail extends VerifyStepCode {}
/** `<verify-step-phone>`: the SMS code step. */
export class VerifyStepPhone extends VerifyStepCode {}

defineElements({ 'verify-step-email': VerifyStepEmail, 'verify-step-phone': VerifyStepPhone });

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-email': VerifyStepEmail;
    'verify-step-phone': VerifyStepPhone;
  }
}
