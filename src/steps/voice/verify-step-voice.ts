import { VerifyStepVoice } from './verify-step-voice.component.js';

export { VerifyStepVoice };

if (!customElements.get('verify-step-voice')) customElements.define('verify-step-voice', VerifyStepVoice);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-voice': VerifyStepVoice;
  }
}
