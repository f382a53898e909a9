import { VerifyHandoff } from './verify-handoff.component.js';

export { VerifyHandoff };

if (!customElements.get('verify-handoff')) customElements.define('verify-handoff', VerifyHandoff);

declare global {
  interface HTMLElementTagNameMap {
    'verify-handoff': VerifyHandoff;
  }
}
