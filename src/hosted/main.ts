/**
 * The hosted verification page (`/security-verify`): `<verify-flow>` for the link in the address
 * bar (or a hand-off token), with the account's branding. Opening the page (GET) shows the flow's
 * intro only; the session starts when the user presses Start (a POST), so link pre-fetchers
 * consume nothing. In the modal / popup embed, the flow's events go to the opener by postMessage.
 */
import '../components/verify-flow/verify-flow.js';
import { HANDOFF_QUERY_PARAM } from '../api/routes.js';
import { directionOf } from '../localization.js';
import { post, readEmbedContext } from './embed-bridge.js';
import { readPageData } from './page-data.js';

const app = document.getElementById('app')!;
const flow = document.createElement('verify-flow');
const query = new URLSearchParams(window.location.search);
const handoff = query.get(HANDOFF_QUERY_PARAM);
if (handoff) flow.handoff = handoff;
else if (query.has('signature')) flow.link = `${window.location.origin}${window.location.pathname}${window.location.search}`;
flow.apiBase = window.location.origin;
flow.applyBranding = true;
// The account's branding from the server, so the intro is branded before any session; in the
// dashboard's preview, the draft branding, and a flow that starts nothing.
const page = readPageData(document);
if (page) {
  flow.branding = page.branding;
  flow.preview = page.preview;
  if (page.steps) flow.plannedSteps = page.steps;
}
if (handoff && !flow.preview) flow.autoStart = true;

const embed = readEmbedContext(window.location, window);
if (embed) {
  flow.stay = true;
  flow.closable = true;
  flow.addEventListener('verify-step-change', (e) => post(embed, { source: 'verity', type: 'step-change', detail: e.detail }));
  flow.addEventListener('verify-complete', (e) => post(embed, { source: 'verity', type: 'complete', detail: e.detail }));
  flow.addEventListener('verify-error', (e) => post(embed, { source: 'verity', type: 'error', detail: e.detail }));
  flow.addEventListener('verify-request-close', (e) => {
    if (!e.defaultPrevented) post(embed, { source: 'verity', type: 'close' });
  });
  flow.addEventListener('verify-ready', () => post(embed, { source: 'verity', type: 'ready' }), { once: true });
}
app.replaceChildren(flow);
// The brand colour is fitted to the light or dark surface when the flow renders; a switch of the
// device's scheme while the page is open renders it again.
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => flow.requestUpdate());

// The whole page follows the flow's language and direction (Arabic is right to left): the flow
// renders them on its `base` part, which is watched here.
const syncLanguage = (): void => {
  document.documentElement.lang = flow.currentLocale;
  document.documentElement.dir = directionOf(flow.currentLocale);
};
void flow.updateComplete.then(() => {
  syncLanguage();
  new MutationObserver(syncLanguage).observe(flow.shadowRoot!, { subtree: true, attributes: true, attributeFilter: ['lang'] });
});
