import { VerifyStepTwoStep } from './verify-step-two-step.component.js';

export { VerifyStepTwoStep };

if (!customElements.get('verify-step-two-step')) customElements.define('verify-step-two-step', VerifyStepTwoStep);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-two-step': VerifyStepTwoStep;
  }
}
