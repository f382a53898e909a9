import { VerifyStepSelfie } from './verify-step-selfie.component.js';

/** `<verify-step-liveness>`: the same element, registered for the liveness method. */
export class VerifyStepLiveness extends VerifyStepSelfie {}

export { VerifyStepSelfie };

if (!customElements.get('verify-step-selfie')) customElements.define('verify-step-selfie', VerifyStepSelfie);
if (!customElements.get('verify-step-liveness')) customElements.define('verify-step-liveness', VerifyStepLiveness);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-selfie': VerifyStepSelfie;
    'verify-step-liveness': VerifyStepLiveness;
  }
}
