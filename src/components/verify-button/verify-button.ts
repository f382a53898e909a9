import { VerifyButton } from './verify-button.component.js';

export { VerifyButton };

if (!customElements.get('verify-button')) customElements.define('verify-button', VerifyButton);

declare global {
  interface HTMLElementTagNameMap {
    'verify-button': VerifyButton;
  }
}
