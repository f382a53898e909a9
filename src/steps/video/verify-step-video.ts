import { VerifyStepVideo } from './verify-step-video.component.js';

export { VerifyStepVideo };

if (!customElements.get('verify-step-video')) customElements.define('verify-step-video', VerifyStepVideo);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-video': VerifyStepVideo;
  }
}
