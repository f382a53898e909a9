import { VerifyStepLiveVideo } from './verify-step-live-video.component.js';

export { VerifyStepLiveVideo };

if (!customElements.get('verify-step-live-video')) customElements.define('verify-step-live-video', VerifyStepLiveVideo);

declare global {
  interface HTMLElementTagNameMap {
    'verify-step-live-video': VerifyStepLiveVideo;
  }
}
