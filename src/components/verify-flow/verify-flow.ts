import { VerifyFlow } from './verify-flow.component.js';

export { VerifyFlow };

if (!customElements.get('verify-flow')) customElements.define('verify-flow', VerifyFlow);

declare global {
  interface HTMLElementTagNameMap {
    'verify-flow': VerifyFlow;
  }
}
