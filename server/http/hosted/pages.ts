import type { AccountSettings } from '../../store/settings-repo.js';
import { safeHttpUrl } from '../../session/methods.js';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function colour(value: string | null, fallback: string): string {
  return value && /^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback;
}

/** The page frame in the account's branding; styles and scripts carry the response's nonce. */
function frame(settings: AccountSettings, nonce: string, title: string, body: string, script = ''): string {
  const b = settings.branding;
  const logo = safeHttpUrl(b.logo_url);
  const name = escapeHtml(settings.account_name);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · ${name}</title>
<style nonce="${nonce}">
:root { --primary: ${colour(b.primary_color, '#1f5fbf')}; --bg: ${colour(b.background_color, '#f6f7f9')}; --text: ${colour(b.text_color, '#1b1d21')}; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--text); }
main { max-width: 34rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
header { display: flex; align-items: center; gap: .75rem; margin-bottom: 1.5rem; font-weight: 600; }
header img { max-height: 40px; max-width: 160px; }
h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
button { font: inherit; padding: .75rem 1.5rem; border: 0; border-radius: 8px; background: var(--primary); color: #fff; cursor: pointer; }
button:focus-visible { outline: 3px solid var(--text); outline-offset: 2px; }
button[disabled] { opacity: .6; cursor: progress; }
ol { padding-left: 1.25rem; }
.muted { opacity: .75; font-size: .9rem; }
[role="alert"] { color: #a4161a; }
</style>
</head>
<body>
<main>
<header>${logo ? `<img src="${escapeHtml(logo)}" alt="">` : ''}<span>${name}</span></header>
${body}
</main>
${script}
</body>
</html>
`;
}

export type RefusalPage = 'invalid' | 'expired' | 'revoked' | 'handoff';

const REFUSALS: Record<RefusalPage, { title: string; text: string }> = {
  invalid: { title: 'This link is not valid', text: 'The verification link is incomplete or was changed. Open the link exactly as you received it.' },
  expired: { title: 'This link has expired', text: 'Verification links work for a limited time. Ask for a new link from the service that sent it.' },
  revoked: { title: 'This link is no longer valid', text: 'This verification link cannot be used any more. Ask the service that sent it for help.' },
  handoff: { title: 'This link was already used', text: 'Links to continue on another device work once and for 10 minutes. Create a new one on your other device.' },
};

/** The page for a refused link: says which refusal, never whether a user exists. */
export function refusalPage(settings: AccountSettings, nonce: string, refusal: RefusalPage): string {
  const r = REFUSALS[refusal];
  return frame(settings, nonce, r.title, `<h1>${escapeHtml(r.title)}</h1>\n<p>${escapeHtml(r.text)}</p>`);
}

/**
 * The landing page rendered by the server when the widget's hosted-app build is not installed. It
 * starts nothing by itself (mail scanners fetch links): the session starts when the person presses
 * Start, with a POST of the link; then it lists the steps and their status. Capture steps need the
 * hosted app (`npm run build:web`), and the page says so rather than pretending.
 */
export function fallbackLandingPage(settings: AccountSettings, nonce: string, methodNames: string[]): string {
  const steps = methodNames.length ? `<p>You will be asked for:</p><ol>${methodNames.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ol>` : '';
  const body = `<h1>Verify your identity</h1>
<p>${escapeHtml(settings.account_name)} asks you to confirm who you are. It takes a few minutes.</p>
${steps}
<button id="start" type="button">Start</button>
<div id="status" role="status" aria-live="polite"></div>
<noscript><p role="alert">This page needs JavaScript.</p></noscript>`;
  const script = `<script nonce="${nonce}">
(function () {
  var button = document.getElementById('start');
  var status = document.getElementById('status');
  button.addEventListener('click', function () {
    button.disabled = true;
    status.textContent = 'Starting…';
    fetch('/session/start', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ link: location.href }), credentials: 'same-origin' })
      .then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
      .then(function (res) {
        if (!res.ok) { status.textContent = res.body.error_message || 'The session could not start.'; button.disabled = false; return; }
        history.replaceState(null, '', location.pathname);
        var list = document.createElement('ol');
        res.body.session.methods.forEach(function (m) {
          var li = document.createElement('li');
          li.textContent = m.name + ': ' + m.status;
          list.appendChild(li);
        });
        status.textContent = 'Your session has started. The verification app is not installed on this server, so the steps cannot be completed here.';
        status.appendChild(list);
        button.remove();
      })
      .catch(function () { status.textContent = 'The service could not be reached.'; button.disabled = false; });
  });
})();
</script>`;
  return frame(settings, nonce, 'Verify your identity', body, script);
}

/**
 * Prepares the hosted app's built `index.html` for our CSP: the response's nonce on every
 * `<script>` and `<style>`, and @vitejs/plugin-legacy's modern-browser probe rewritten without its
 * `import 'data:…'` (a `data:` script our CSP refuses, which would make every browser load the
 * legacy bundle on top of the modern one). The rewrite keeps the probe's meaning: the module throws
 * when `import.meta.resolve` is missing, so such browsers still get the legacy build.
 */
export function withNonce(html: string, nonce: string): string {
  return html
    .replace(/import\s*'data:text\/javascript,(if\(!import\.meta\.resolve\)throw Error\("import\.meta\.resolve not supported"\))';/g, '$1;')
    .replace(/<(script|style)\b(?![^>]*\snonce=)/gi, `<$1 nonce="${nonce}"`);
}
