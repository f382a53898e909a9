import { VerifyStepSecureCard } from './verify-step-secure-card.component.js';

export { VerifyStepSecureCard };

if (!customElements.get('verify-step-secure-card')) customElements.define('verify-step-secure-card', VerifyStepSecureCard);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-secure-card': VerifyStepSecureCard;
  }
}
