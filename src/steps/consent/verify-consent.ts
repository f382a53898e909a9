import { VerifyConsent } from './verify-consent.component.js';

export { VerifyConsent };

if (!customElements.get('verify-consent')) customElements.define('verify-consent', VerifyConsent);

declare global {
  interface HTMLElementTagNameMap {
    'verify-consent': VerifyConsent;
  }
}
