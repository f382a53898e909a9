import { VerifyStepGeolocation } from './verify-step-geolocation.component.js';

export { VerifyStepGeolocation };

if (!customElements.get('verify-step-geolocation')) customElements.define('verify-step-geolocation', VerifyStepGeolocation);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-geolocation': VerifyStepGeolocation;
  }
}
