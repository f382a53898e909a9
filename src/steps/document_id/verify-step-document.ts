import { VerifyStepDocument } from './verify-step-document.component.js';

export { VerifyStepDocument };

if (!customElements.get('verify-step-document')) customElements.define('verify-step-document', VerifyStepDocument);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-document': VerifyStepDocument;
  }
}
