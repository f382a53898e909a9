import { VerifyStepKnowledge } from './verify-step-knowledge.component.js';

export { VerifyStepKnowledge };

if (!customElements.get('verify-step-knowledge')) customElements.define('verify-step-knowledge', VerifyStepKnowledge);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-knowledge': VerifyStepKnowledge;
  }
}
