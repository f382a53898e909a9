/**
 * The single-file script-tag embed (`<script src="{base_url}/web/verity.js">`): registers
 * `<verify-button>` at once, and loads `<verify-flow>` (an ES module with lazy chunks) from the
 * same place only when the page uses it, keeping this file small.
 */
import './components/verify-button/verify-button.js';

const script = document.currentScript as HTMLScriptElement | null;
const base = script?.src ? new URL('.', script.src).href : '';
let flowRequested = false;

/** Loads the `<verify-flow>` module next to this script (idempotent). */
function loadFlow(): void {
  if (flowRequested || !base || customElements.get('verify-flow')) return;
  flowRequested = true;
  const module = document.createElement('script');
  module.type = 'module';
  module.src = new URL('esm/verify-flow.js', base).href;
  document.head.append(module);
}

// Watches for a <verify-flow> in the page (now or added later) until one appears.
const observer = new MutationObserver(() => {
  if (document.querySelector('verify-flow')) {
    observer.disconnect();
    loadFlow();
  }
});
observer.observe(document.documentElement, { childList: true, subtree: true });
if (document.querySelector('verify-flow')) loadFlow();

// The IIFE build exposes the exports as `window.Verity`.
export { loadFlow };
