import { defineElements } from '../../internal/define-elements.js';
import { VerifyStepSelfie } from './verify-step-selfie.component.js';

/** `<verify-step-liveness>`: the same element, registered for the liveness method. */
export class VerifyStepLiveness extends VerifyStepSelfie {}

export { VerifyStepSelfie };

defineElements({ 'verify-step-selfie': VerifyStepSelfie, 'verify-step-liveness': VerifyStepLiveness });

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-selfie': VerifyStepSelfie;
    'verify-step-liveness': VerifyStepLiveness;
  }
}
