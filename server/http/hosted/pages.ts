import type { AccountSettings } from '../../store/repos/settings-repo.js';
import type { MessageLocale } from '../../notify/messages.js';
import { safeHttpUrl } from '../../session/safe-url.js';
import { HOSTED_PAGE_DATA_ID, type HostedPageData } from '../../../src/api/contract.js';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function colour(value: string | null, fallback: string): string {
  return value && /^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback;
}

/** The page frame in the account's branding; styles and scripts carry the response's nonce (also the sign-in pages, methods/oidc). */
export function frame(settings: AccountSettings, nonce: string, locale: MessageLocale, title: string, body: string, script = ''): string {
  const b = settings.branding;
  const logo = safeHttpUrl(b.logo_url);
  const name = escapeHtml(settings.account_name);
  return `<!doctype html>
<html lang="${locale}"${locale === 'ar' ? ' dir="rtl"' : ''}>
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

interface PageTexts {
  refusals: Record<RefusalPage, { title: string; text: string }>;
  /** The page of a link whose flow was completed. */
  done: { title: string; text: string };
  verify: string;
  asks: (account: string) => string;
  steps: string;
  start: string;
  needsJs: string;
  starting: string;
  started: string;
  unreachable: string;
}

/** Texts of the server-rendered pages, in the widget's locales. */
const PAGE_TEXTS: Record<MessageLocale, PageTexts> = {
  en: {
    refusals: {
      invalid: { title: 'This link is not valid', text: 'The verification link is incomplete or was changed. Open the link exactly as you received it.' },
      expired: { title: 'This link has expired', text: 'Verification links work for a limited time. Ask for a new link from the service that sent it.' },
      revoked: { title: 'This link is no longer valid', text: 'This verification link cannot be used any more. Ask the service that sent it for help.' },
      handoff: {
        title: 'This link was already used',
        text: 'Links to continue on another device work once and for 10 minutes. Create a new one on your other device.',
      },
    },
    done: {
      title: 'Thank you, you are done',
      text: 'You have already completed this verification. There is nothing more to do here; you can close this page.',
    },
    verify: 'Verify your identity',
    asks: (a) => `${a} asks you to confirm who you are. It takes a few minutes.`,
    steps: 'You will be asked for:',
    start: 'Start',
    needsJs: 'This page needs JavaScript.',
    starting: 'Starting…',
    started: 'Your session has started. The verification app is not installed on this server, so the steps cannot be completed here.',
    unreachable: 'The service could not be reached.',
  },
  es: {
    refusals: {
      invalid: { title: 'Este enlace no es válido', text: 'El enlace de verificación está incompleto o ha sido modificado. Ábralo tal como lo recibió.' },
      expired: {
        title: 'Este enlace ha caducado',
        text: 'Los enlaces de verificación son válidos durante un tiempo limitado. Pida un enlace nuevo al servicio que se lo envió.',
      },
      revoked: { title: 'Este enlace ya no es válido', text: 'Este enlace de verificación ya no se puede usar. Pida ayuda al servicio que se lo envió.' },
      handoff: {
        title: 'Este enlace ya se ha usado',
        text: 'Los enlaces para continuar en otro dispositivo sirven una vez y durante 10 minutos. Cree uno nuevo en su otro dispositivo.',
      },
    },
    done: { title: 'Gracias, ya ha terminado', text: 'Ya ha completado esta verificación. No queda nada más por hacer aquí; puede cerrar esta página.' },
    verify: 'Verifique su identidad',
    asks: (a) => `${a} le pide que confirme quién es. Solo le llevará unos minutos.`,
    steps: 'Se le pedirá:',
    start: 'Empezar',
    needsJs: 'Esta página necesita JavaScript.',
    starting: 'Empezando…',
    started: 'Su sesión ha empezado. La aplicación de verificación no está instalada en este servidor, así que los pasos no se pueden completar aquí.',
    unreachable: 'No se ha podido contactar con el servicio.',
  },
  fr: {
    refusals: {
      invalid: { title: 'Ce lien n’est pas valide', text: 'Le lien de vérification est incomplet ou a été modifié. Ouvrez-le tel que vous l’avez reçu.' },
      expired: {
        title: 'Ce lien a expiré',
        text: 'Les liens de vérification sont valables un temps limité. Demandez un nouveau lien au service qui vous l’a envoyé.',
      },
      revoked: {
        title: 'Ce lien n’est plus valide',
        text: 'Ce lien de vérification ne peut plus être utilisé. Demandez de l’aide au service qui vous l’a envoyé.',
      },
      handoff: {
        title: 'Ce lien a déjà été utilisé',
        text: 'Les liens pour continuer sur un autre appareil servent une fois, pendant 10 minutes. Créez-en un nouveau sur votre autre appareil.',
      },
    },
    done: { title: 'Merci, c’est terminé', text: 'Vous avez déjà terminé cette vérification. Il n’y a plus rien à faire ici ; vous pouvez fermer cette page.' },
    verify: 'Vérifiez votre identité',
    asks: (a) => `${a} vous demande de confirmer votre identité. Cela prend quelques minutes.`,
    steps: 'Il vous sera demandé :',
    start: 'Commencer',
    needsJs: 'Cette page nécessite JavaScript.',
    starting: 'Démarrage…',
    started: 'Votre session a démarré. L’application de vérification n’est pas installée sur ce serveur : les étapes ne peuvent pas être faites ici.',
    unreachable: 'Le service est injoignable.',
  },
  de: {
    refusals: {
      invalid: {
        title: 'Dieser Link ist ungültig',
        text: 'Der Bestätigungslink ist unvollständig oder wurde verändert. Öffnen Sie ihn genau so, wie Sie ihn erhalten haben.',
      },
      expired: {
        title: 'Dieser Link ist abgelaufen',
        text: 'Bestätigungslinks gelten nur begrenzte Zeit. Fordern Sie bei dem Dienst, der ihn gesendet hat, einen neuen an.',
      },
      revoked: {
        title: 'Dieser Link ist nicht mehr gültig',
        text: 'Dieser Bestätigungslink kann nicht mehr verwendet werden. Wenden Sie sich an den Dienst, der ihn gesendet hat.',
      },
      handoff: {
        title: 'Dieser Link wurde bereits verwendet',
        text: 'Links zum Fortfahren auf einem anderen Gerät gelten einmal und 10 Minuten lang. Erstellen Sie auf Ihrem anderen Gerät einen neuen.',
      },
    },
    done: {
      title: 'Vielen Dank, Sie sind fertig',
      text: 'Sie haben diese Bestätigung bereits abgeschlossen. Hier ist nichts mehr zu tun; Sie können diese Seite schließen.',
    },
    verify: 'Bestätigen Sie Ihre Identität',
    asks: (a) => `${a} bittet Sie, Ihre Identität zu bestätigen. Das dauert nur wenige Minuten.`,
    steps: 'Sie werden gebeten um:',
    start: 'Starten',
    needsJs: 'Diese Seite benötigt JavaScript.',
    starting: 'Wird gestartet…',
    started: 'Ihre Sitzung hat begonnen. Die Prüf-App ist auf diesem Server nicht installiert, daher können die Schritte hier nicht erledigt werden.',
    unreachable: 'Der Dienst ist nicht erreichbar.',
  },
  pt: {
    refusals: {
      invalid: { title: 'Este link não é válido', text: 'O link de verificação está incompleto ou foi alterado. Abra-o tal como o recebeu.' },
      expired: { title: 'Este link expirou', text: 'Os links de verificação são válidos por tempo limitado. Peça um novo link ao serviço que o enviou.' },
      revoked: { title: 'Este link já não é válido', text: 'Este link de verificação já não pode ser usado. Peça ajuda ao serviço que o enviou.' },
      handoff: {
        title: 'Este link já foi usado',
        text: 'Os links para continuar noutro dispositivo funcionam uma vez e durante 10 minutos. Crie um novo no seu outro dispositivo.',
      },
    },
    done: { title: 'Obrigado, já terminou', text: 'Já concluiu esta verificação. Não há mais nada a fazer aqui; pode fechar esta página.' },
    verify: 'Verifique a sua identidade',
    asks: (a) => `${a} pede-lhe que confirme quem é. Demora poucos minutos.`,
    steps: 'Ser-lhe-á pedido:',
    start: 'Começar',
    needsJs: 'Esta página precisa de JavaScript.',
    starting: 'A iniciar…',
    started: 'A sua sessão começou. A aplicação de verificação não está instalada neste servidor, por isso os passos não podem ser concluídos aqui.',
    unreachable: 'Não foi possível contactar o serviço.',
  },
  ar: {
    refusals: {
      invalid: { title: 'هذا الرابط غير صالح', text: 'رابط التحقق غير مكتمل أو تم تغييره. افتح الرابط كما استلمته تمامًا.' },
      expired: { title: 'انتهت صلاحية هذا الرابط', text: 'روابط التحقق صالحة لفترة محدودة. اطلب رابطًا جديدًا من الخدمة التي أرسلته.' },
      revoked: { title: 'هذا الرابط لم يعد صالحًا', text: 'لم يعد من الممكن استخدام رابط التحقق هذا. اطلب المساعدة من الخدمة التي أرسلته.' },
      handoff: { title: 'تم استخدام هذا الرابط من قبل', text: 'روابط المتابعة على جهاز آخر تعمل مرة واحدة ولمدة 10 دقائق. أنشئ رابطًا جديدًا على جهازك الآخر.' },
    },
    done: { title: 'شكرًا لك، لقد انتهيت', text: 'لقد أكملت عملية التحقق هذه بالفعل. لا يوجد ما تفعله هنا بعد الآن؛ يمكنك إغلاق هذه الصفحة.' },
    verify: 'تحقق من هويتك',
    asks: (a) => `يطلب منك ${a} تأكيد هويتك. يستغرق ذلك بضع دقائق.`,
    steps: 'سيُطلب منك:',
    start: 'ابدأ',
    needsJs: 'تحتاج هذه الصفحة إلى JavaScript.',
    starting: 'جارٍ البدء…',
    started: 'بدأت جلستك. تطبيق التحقق غير مثبت على هذا الخادم، لذلك لا يمكن إكمال الخطوات هنا.',
    unreachable: 'تعذّر الوصول إلى الخدمة.',
  },
};

/** The page for a refused link: says which refusal, never whether a user exists. */
export function refusalPage(settings: AccountSettings, nonce: string, refusal: RefusalPage, locale: MessageLocale = 'en'): string {
  const r = PAGE_TEXTS[locale].refusals[refusal];
  return frame(settings, nonce, locale, r.title, `<h1>${escapeHtml(r.title)}</h1>\n<p>${escapeHtml(r.text)}</p>`);
}

/**
 * The page of a valid link whose flow was completed: "you are done", with nothing to start
 * (issue 18, point 5; `POST /session/start` refuses such a link with `session_flow_completed`).
 */
export function completedPage(settings: AccountSettings, nonce: string, locale: MessageLocale = 'en'): string {
  const d = PAGE_TEXTS[locale].done;
  return frame(settings, nonce, locale, d.title, `<h1>${escapeHtml(d.title)}</h1>\n<p>${escapeHtml(d.text)}</p>`);
}

/**
 * The landing page rendered by the server when the widget's hosted-app build is not installed. It
 * starts nothing by itself (mail scanners fetch links): the session starts when the person presses
 * Start, with a POST of the link; then it lists the steps and their status. Capture steps need the
 * hosted app (`npm run build:web`), and the page says so rather than pretending.
 */
export function fallbackLandingPage(
  settings: AccountSettings,
  nonce: string,
  methodNames: string[],
  locale: MessageLocale = 'en',
  options: { preview?: boolean } = {},
): string {
  const t = PAGE_TEXTS[locale];
  const steps = methodNames.length ? `<p>${escapeHtml(t.steps)}</p><ol>${methodNames.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ol>` : '';
  if (options.preview) {
    // The dashboard's preview: the same page without its script, so Start starts nothing.
    const body = `<h1>${escapeHtml(t.verify)}</h1>
<p>${escapeHtml(t.asks(settings.account_name))}</p>
${steps}
<button id="start" type="button">${escapeHtml(t.start)}</button>`;
    return frame(settings, nonce, locale, t.verify, body);
  }
  const body = `<h1>${escapeHtml(t.verify)}</h1>
<p>${escapeHtml(t.asks(settings.account_name))}</p>
${steps}
<button id="start" type="button">${escapeHtml(t.start)}</button>
<div id="status" role="status" aria-live="polite"></div>
<noscript><p role="alert">${escapeHtml(t.needsJs)}</p></noscript>`;
  const strings = JSON.stringify({ starting: t.starting, started: t.started, unreachable: t.unreachable }).replace(/</g, '\\u003c');
  const script = `<script nonce="${nonce}">
(function () {
  var t = ${strings};
  var button = document.getElementById('start');
  var status = document.getElementById('status');
  button.addEventListener('click', function () {
    button.disabled = true;
    status.textContent = t.starting;
    var handoff = new URLSearchParams(location.search).get('handoff');
    var call = handoff ? ['/session/handoff/claim', { token: handoff }] : ['/session/start', { link: location.href }];
    fetch(call[0], { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(call[1]), credentials: 'same-origin' })
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
        status.textContent = t.started;
        status.appendChild(list);
        button.remove();
      })
      .catch(function () { status.textContent = t.unreachable; button.disabled = false; });
  });
})();
</script>`;
  return frame(settings, nonce, locale, t.verify, body, script);
}

/**
 * The hosted app's page data block (see `HostedPageData` in `src/api/contract.ts`): the branding to
 * show before a session exists, and whether this is the dashboard's preview. JSON in a
 * non-executed `<script type="application/json">`, with `<` escaped so it cannot end the element.
 */
export function withPageData(html: string, nonce: string, data: HostedPageData): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  const block = `<script type="application/json" id="${HOSTED_PAGE_DATA_ID}" nonce="${nonce}">${json}</script>`;
  return html.includes('</head>') ? html.replace('</head>', `${block}\n</head>`) : `${block}\n${html}`;
}

/** The account's branding as the hosted page shows it (only http(s) logo URLs). */
export function brandingOf(settings: AccountSettings): HostedPageData['branding'] {
  const b = settings.branding;
  return {
    account_name: settings.account_name,
    logo_url: safeHttpUrl(b.logo_url),
    primary_color: colourOrNull(b.primary_color),
    background_color: colourOrNull(b.background_color),
    text_color: colourOrNull(b.text_color),
  };
}

function colourOrNull(value: string | null): string | null {
  return value && /^#[0-9a-fA-F]{6}$/.test(value) ? value : null;
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
