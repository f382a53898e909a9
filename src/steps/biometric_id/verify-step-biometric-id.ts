import { VerifyStepBiometricId } from './verify-step-biometric-id.component.js';

export { VerifyStepBiometricId };

if (!customElements.get('verify-step-biometric-id')) customElements.define('verify-step-biometric-id', VerifyStepBiometricId);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-biometric-id': VerifyStepBiometricId;
  }
}
